/**
 * Authentication refusals: an agent answering 401 with a `WWW-Authenticate` challenge, or 403 whose
 * challenge says `insufficient_scope` (RFC 6750). Such a failure is kind `http` with a message that
 * names the scheme the agent asks for; only the challenge's scheme, realm, error and scope are shown,
 * never credentials (the request's header values are redacted from every failure anyway).
 */
import { A2AClientError, isA2AClientError } from './a2a-client-error.js';
import { describeChallenges, parseWwwAuthenticate, type ParsedChallenge } from './www-authenticate.js';

/** An agent's authentication challenge, as a headers function receives it. */
export interface AuthChallenge {
  /** 401, or 403 for `insufficient_scope`. */
  status: number;
  /** The `WWW-Authenticate` header as received. */
  wwwAuthenticate: string;
  /** Its challenges, parsed (scheme, parameters such as `realm`, `error`, `scope`). */
  challenges: ParsedChallenge[];
}

/**
 * The challenge behind a failure, when it is an authentication refusal: kind `http` or `json-rpc`,
 * status 401 with a `WWW-Authenticate` header, or 403 whose challenge has `error="insufficient_scope"`.
 * Otherwise `undefined`. Never throws.
 */
export function challengeOf(error: unknown): AuthChallenge | undefined {
  if (!isA2AClientError(error) || (error.kind !== 'http' && error.kind !== 'json-rpc')) return undefined;
  const status = error.status;
  if (status !== 401 && status !== 403) return undefined;
  const header = error.headers?.['www-authenticate'];
  if (header === undefined) return undefined;
  const challenges = parseWwwAuthenticate(header);
  if (status === 403 && !challenges.some((c) => c.params['error']?.toLowerCase() === 'insufficient_scope')) return undefined;
  return { status, wwwAuthenticate: header, challenges };
}

/**
 * An authentication refusal as the error callers see: kind `http` (a JSON-RPC error body that came
 * with the 401 is kept: `code`, `data`, `a2aName`, and the JSON-RPC error as `cause`), its message
 * naming what the agent asks for. `again`: refused after the headers function answered the challenge.
 * Never throws.
 */
export function authRefusal(error: A2AClientError, challenge: AuthChallenge, again = false): A2AClientError {
  const wants = challenge.status === 403 ? 'more scope' : 'authentication';
  const what = `the agent asks for ${wants}: ${describeChallenges(challenge.challenges)}`;
  const message = again
    ? `HTTP ${challenge.status}: the agent refused the request again after the headers function answered its challenge; not repeating (${what})`
    : `${error.message} (${what})`;
  const init = { ...error.toInit(), kind: 'http' as const, message, retryable: false };
  if (error.kind !== 'http') init.cause = error;
  const refused = new A2AClientError(init);
  if (error.stack !== undefined) refused.stack = error.stack.replace(error.message, message);
  return refused;
}

/**
 * `error` turned into an {@link authRefusal} when it is an authentication refusal ({@link challengeOf}),
 * else `error` itself. Never throws.
 */
export function asAuthRefusal(error: unknown): unknown {
  const challenge = challengeOf(error);
  return challenge && isA2AClientError(error) && !error.message.includes('the agent asks for') ? authRefusal(error, challenge) : error;
}
