import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AuthChallenge } from '../errors/auth-refusal.js';
import type { AgentCard } from './card-model.js';

/** What a headers function is told about the request it supplies headers for. */
export interface HeadersContext {
  /** The agent's card; `undefined` while it is being discovered (the first card fetch of `connect`). */
  card: AgentCard | undefined;
  /** 1-based attempt number within the call; the repeat after a challenge keeps its attempt's number. */
  attempt: number;
  /** The method, e.g. `sendMessage`, `getExtendedAgentCard`, or `getAgentCard` for a card fetch. */
  method: string;
  /**
   * Set when the agent refused the previous try of this attempt with 401 (or 403 `insufficient_scope`)
   * and a `WWW-Authenticate` challenge: answer it (a fresh token, more scope) and the request is
   * repeated once.
   */
  challenge?: AuthChallenge;
}

/**
 * Headers as a record, or a function (e.g. returning a fresh token) called before every attempt
 * with a {@link HeadersContext}. A function that takes no argument works too.
 */
export type HeadersOption =
  | Record<string, string>
  | ((ctx: HeadersContext) => Record<string, string> | Promise<Record<string, string>>);

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A character HTTP cannot carry in a field value: controls other than tab, DEL, and anything past Latin-1. */
const BAD_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/**
 * Headers that belong to the HTTP connection and message framing, which the HTTP client owns: undici
 * refuses them (and fetch mangles them), so a caller's value could only fail the request.
 */
const CONNECTION_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', 'content-length']);

/**
 * The error for a header HTTP cannot carry. It names the header, never its value (a credential),
 * and is not retried: nothing was sent, and repeating cannot help.
 */
function invalidHeader(name: string, what: string): A2AClientError {
  const shown = TOKEN.test(name) ? name.toLowerCase() : JSON.stringify(name.slice(0, 64));
  return new A2AClientError({
    kind: 'unsupported',
    message: `Header ${shown} ${what}; nothing was sent`,
    field: `headers.${shown}`,
    phase: 'before-send',
    retryable: false,
  });
}

/**
 * Lower-cases header names; later sources win. Every header a caller supplies passes here, so this
 * is where it is checked: the platform would otherwise reject it with an error that quotes the value.
 * @throws A2AClientError kind `unsupported` (naming the header, not its value) for a name that is not
 * an HTTP token, a connection or framing header (`connection`, `transfer-encoding`, `content-length`,
 * …), or a value with a line break, NUL or other control character, or a character past Latin-1.
 */
export function mergeHeaders(...sources: Array<Record<string, string> | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of Object.entries(source)) {
      if (!TOKEN.test(name)) throw invalidHeader(name, 'is not a valid HTTP header name');
      if (CONNECTION_HEADERS.has(name.toLowerCase())) throw invalidHeader(name, 'belongs to the HTTP connection and cannot be set');
      if (typeof value !== 'string') throw invalidHeader(name, 'has a value that is not a string');
      if (BAD_VALUE_CHAR.test(value)) throw invalidHeader(name, 'has a value HTTP cannot carry (a control character or a character past Latin-1)');
      out[name.toLowerCase()] = value;
    }
  }
  return out;
}

/**
 * Resolves the client's headers (static, or a function called once per attempt with `ctx`, so tokens
 * stay fresh and challenges can be answered) and merges the per-call ones over them.
 * @throws A2AClientError kind `unsupported` for a header HTTP cannot carry (see {@link mergeHeaders});
 * whatever the headers function throws.
 */
export async function resolveHeaders(
  clientHeaders: HeadersOption | undefined,
  callHeaders: Record<string, string> | undefined,
  ctx: HeadersContext,
): Promise<Record<string, string>> {
  const base = typeof clientHeaders === 'function' ? await clientHeaders(ctx) : clientHeaders;
  return mergeHeaders(base, callHeaders);
}
