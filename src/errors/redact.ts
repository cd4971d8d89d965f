/**
 * Keeping the caller's header values (tokens, API keys, cookies) out of errors. A request's failure is
 * redacted once, where the request was made (see `attemptFailure` in protocol/exchange.ts and the card
 * fetch): every error, event and `onEvent` payload above is built from redacted errors, so nothing the
 * caller sent in a header comes back in a message, a field, a parsed body, response headers or a
 * `cause` — not even when a hostile server echoes the request, or the platform quotes an invalid value.
 * Nothing runs on success.
 */
import { A2AClientError, isA2AClientError, type A2AClientErrorInit } from './a2a-client-error.js';
import { hintsOf, keepHints } from './hints.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * The shortest text treated as a secret. A header value (or a part of it, below) shorter than this is
 * not redacted: it would match ordinary words and numbers in messages, and is no credential.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Headers whose values the SDK itself sets and are not secrets (the propagated deadline, trace
 * context); redacting them would hide numbers and trace ids in messages.
 */
const NOT_SECRET: ReadonlySet<string> = new Set(['a2a-deadline-ms', 'traceparent', 'tracestate']);

/** `<scheme> <credentials>` as in `Authorization: Bearer <token>`. */
const SCHEME = /^([!-~]+)[ \t]+(\S[\s\S]*)$/;

/** Nesting beyond which a subtree that holds a secret is replaced whole (no recursion that deep). */
const MAX_DEPTH = 64;

/** `name=value` parameters inside a header value (cookies, `key=…; region=…`): each value is a secret of its own. */
const PARAMETER = /(?:^|[;,\s])[^=;,\s]+=("?)([^;,"]*)\1/g;

/**
 * The texts to hide for a request's headers (any case of name): each value of every header but the
 * SDK's own, trimmed or not; the credentials after an auth scheme (`Bearer <token>`), and for `Basic`
 * the decoded `user:password` and the password; each `name=value` parameter's value (a cookie's
 * session id); each also as it reads inside a JSON string and percent-encoded. Only texts of at least
 * {@link MIN_SECRET_LENGTH} characters; longest first.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const found = new Set<string>();
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string' || NOT_SECRET.has(name.toLowerCase())) continue;
    const plain = [value, value.trim()];
    const scheme = SCHEME.exec(value.trim());
    if (scheme) {
      const credentials = (scheme[2] as string).trim();
      plain.push(credentials);
      if ((scheme[1] as string).toLowerCase() === 'basic') plain.push(...basicParts(credentials));
    }
    for (const match of value.matchAll(PARAMETER)) plain.push((match[2] as string).trim());
    for (const text of plain) {
      for (const form of [text, JSON.stringify(text).slice(1, -1), safeEncode(text)]) if (form.length >= MIN_SECRET_LENGTH) found.add(form);
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** The decoded `user:password` of Basic credentials, and the password. */
function basicParts(credentials: string): string[] {
  if (!/^[A-Za-z0-9+/]+=*$/.test(credentials)) return [];
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? [decoded] : [decoded, decoded.slice(colon + 1)];
}

/** `encodeURIComponent`, or the text itself for one with a lone surrogate (which it cannot encode). */
function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // URIError: a lone surrogate has no percent-encoding; the plain form is redacted already.
    return text;
  }
}

/**
 * The texts to hide for a request's URL: its password and each query parameter value (an API key in
 * `?key=…`), as sent and decoded; only those of at least {@link MIN_SECRET_LENGTH} characters.
 */
export function urlSecrets(url: string | undefined): string[] {
  if (url === undefined || !URL.canParse(url)) return [];
  const u = new URL(url);
  const found = new Set<string>();
  const add = (text: string): void => {
    if (text.length >= MIN_SECRET_LENGTH) found.add(text);
  };
  add(u.password);
  add(safeDecode(u.password));
  for (const [, value] of u.searchParams) {
    add(value);
    add(safeEncode(value));
  }
  return [...found];
}

/** `decodeURIComponent`, or the text itself when it is not valid percent-encoding. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // URIError: not percent-encoded after all; the text as it is was added already.
    return text;
  }
}

/**
 * A request's failure with the values of the headers it sent (and the secrets of its URL, see
 * {@link urlSecrets}) removed ({@link headerSecrets}, {@link redactSecrets}): what every binding and
 * the card fetch throw. The server's retry hints are read before redaction and kept with the
 * redacted copy, so a header value that happens to equal a `Retry-After` cannot erase it. Never throws.
 */
export function redactFailure<T>(error: T, headers: Readonly<Record<string, string>>, url?: string): T {
  const secrets = [...new Set([...headerSecrets(headers), ...urlSecrets(url)])].sort((a, b) => b.length - a.length);
  if (secrets.length === 0 || !isA2AClientError(error)) return redactSecrets(error, secrets);
  const hints = hintsOf(error);
  const clean = redactSecrets(error, secrets);
  if (clean !== error) keepHints(clean, hints);
  return clean;
}

/** State of one redaction. */
interface Walk {
  secrets: readonly string[];
  marker: string;
  /** Objects being copied (a cycle back to one reads as `[Circular]`). */
  active: Set<object>;
  /** Objects done, and what they became. */
  done: Map<object, unknown>;
}

/**
 * `error` with every occurrence of each secret replaced by `[REDACTED]` in every string it holds: its
 * message and stack, each field (response headers, `bodyText`, `problem`, `rpcStatus`, `data`,
 * `issues`, …), every attempt, and its `cause` chain (platform errors copied with their class kept).
 * Copies only what changes; returns `error` itself when no secret occurs (or there are none). The
 * discriminants (`kind`, `phase`, `reason`) and `method` are never changed. Never throws.
 */
export function redactSecrets<T>(error: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return error;
  // The marker must not itself contain a secret; "***" is shorter than any.
  const marker = secrets.some((s) => REDACTED.includes(s)) ? '***' : REDACTED;
  const walk: Walk = { secrets, marker, active: new Set(), done: new Map() };
  try {
    return value(error, walk, 0) as T;
  } catch (failure) {
    // An object that throws when read (a proxy, a getter): keep only what is known to be plain.
    if (!isA2AClientError(error)) return new Error(text(String(failure), walk)) as T;
    return new A2AClientError({ kind: error.kind, message: text(error.message, walk), method: error.method, retryable: error.retryable, phase: error.phase }) as T;
  }
}

/**
 * Where text was cut: our `…` (see `bounded`) and V8's `...` around a JSON snippet. The end of a long
 * string counts as a cut too (a body read up to its size cap).
 */
const CUT = /…|\.\.\."?|"\.\.\./g;

/** A string at least this long may have been cut at its end without a mark (see {@link CUT}). */
const LONG = 1024;

/** The shortest piece of a cut secret that is masked (shorter pieces would match ordinary words). */
const MIN_PIECE = 8;

/**
 * A string with every secret replaced, and every piece of a secret that a cut left behind (a
 * secret's start just before a cut, its end just after one, or a whole stretch between two cuts; at
 * least {@link MIN_PIECE} characters, or all but one of a shorter secret); a string where replacing
 * left a secret (across a marker) becomes the marker.
 */
function text(s: string, w: Walk): string {
  // Pieces first: replacing a whole secret inside a cut one would hide the piece's start.
  let out = s.length >= LONG || s.includes('…') || s.includes('...') ? cutPieces(s, w) : s;
  for (const secret of w.secrets) if (out.includes(secret)) out = out.split(secret).join(w.marker);
  if (out === s) return s;
  return w.secrets.some((secret) => out.includes(secret)) ? w.marker : out;
}

/** `s` with the pieces of secrets at its cuts replaced by the marker (see {@link text}). */
function cutPieces(s: string, w: Walk): string {
  let out = '';
  let from = 0;
  let cutBefore = false;
  for (const m of s.matchAll(CUT)) {
    out += maskPiece(s.slice(from, m.index), cutBefore, true, w) + m[0];
    from = m.index + m[0].length;
    cutBefore = true;
  }
  return out + maskPiece(s.slice(from), cutBefore, s.length >= LONG, w);
}

/**
 * One stretch between cuts: with a cut on both sides, a stretch that lies inside a secret is masked
 * whole; a secret's end at its start (after a cut) and a secret's start at its end (before a cut) are masked.
 */
function maskPiece(piece: string, cutBefore: boolean, cutAfter: boolean, w: Walk): string {
  let head = 0;
  let tail = piece.length;
  for (const secret of w.secrets) {
    const min = Math.max(MIN_SECRET_LENGTH, Math.min(MIN_PIECE, secret.length - 1));
    if (piece.length < min) continue;
    if (cutBefore && cutAfter && piece.length < secret.length && secret.includes(piece)) return w.marker;
    for (let n = Math.min(secret.length - 1, piece.length); cutBefore && n >= min && n > head; n--) {
      if (piece.startsWith(secret.slice(secret.length - n))) head = n;
    }
    for (let n = Math.min(secret.length - 1, piece.length); cutAfter && n >= min && n > piece.length - tail; n--) {
      if (piece.endsWith(secret.slice(0, n))) tail = piece.length - n;
    }
  }
  if (head === 0 && tail === piece.length) return piece;
  if (head >= tail) return w.marker;
  return `${head > 0 ? w.marker : ''}${piece.slice(head, tail)}${tail < piece.length ? w.marker : ''}`;
}

function value(v: unknown, w: Walk, depth: number): unknown {
  if (typeof v === 'string') return text(v, w);
  if (typeof v !== 'object' || v === null) return v;
  if (w.done.has(v)) return w.done.get(v);
  if (w.active.has(v)) return '[Circular]';
  let out: unknown = v;
  if (depth > MAX_DEPTH) {
    if (holdsSecret(v, w)) out = w.marker;
  } else {
    w.active.add(v);
    if (isA2AClientError(v)) out = clientError(v, w, depth);
    else if (v instanceof Error) out = platformError(v, w, depth);
    else if (Array.isArray(v)) out = array(v, w, depth);
    else if (isPlain(v)) out = record(v as Record<string, unknown>, w, depth);
    w.active.delete(v);
  }
  w.done.set(v, out);
  return out;
}

/** Fields that are the SDK's own vocabulary, never text from the server. */
const KEEP: ReadonlySet<string> = new Set(['kind', 'phase', 'reason', 'method', 'retryable', 'retryAfterMs', 'status', 'code']);

function clientError(e: A2AClientError, w: Walk, depth: number): A2AClientError {
  const init = e.toInit() as unknown as Record<string, unknown>;
  let changed = false;
  for (const key of Object.keys(init)) {
    if (KEEP.has(key)) continue;
    const before = init[key];
    const after = value(before, w, depth + 1);
    if (after !== before) {
      init[key] = after;
      changed = true;
    }
  }
  const stack = e.stack === undefined ? undefined : text(e.stack, w);
  if (!changed && stack === e.stack) return e;
  const copy = new A2AClientError(init as unknown as A2AClientErrorInit);
  copy.stack = stack;
  return copy;
}

/** Another error (a platform TypeError, an undici error): a copy of the same class with its own fields redacted. */
function platformError(e: Error, w: Walk, depth: number): Error {
  const fields = Object.getOwnPropertyDescriptors(e) as Record<PropertyKey, PropertyDescriptor>;
  let changed = false;
  for (const key of Reflect.ownKeys(fields)) {
    const field = fields[key];
    if (field === undefined || !('value' in field)) continue;
    const after = value(field.value, w, depth + 1);
    if (after !== field.value) {
      field.value = after;
      changed = true;
    }
  }
  // A message inherited from a getter (DOMException) is read once and kept as an own field.
  const own = Object.hasOwn(e, 'message');
  const message = own ? undefined : text(String(e.message), w);
  if (!changed && (own || message === e.message)) return e;
  if (own) return Object.create(Object.getPrototypeOf(e) as object, fields) as Error;
  const copy = Object.create(Error.prototype, fields) as Error;
  Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true });
  Object.defineProperty(copy, 'name', { value: e.name, writable: true, configurable: true });
  return copy;
}

function array(a: readonly unknown[], w: Walk, depth: number): readonly unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < a.length; i++) {
    const after = value(a[i], w, depth + 1);
    if (after !== a[i]) (out ??= a.slice())[i] = after;
  }
  return out ?? a;
}

function record(o: Record<string, unknown>, w: Walk, depth: number): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(o)) {
    const before = o[key];
    const after = value(before, w, depth + 1);
    // A hostile server can put a secret in a key too (`{ "<token>": … }`).
    const cleanKey = text(key, w);
    if (after !== before || cleanKey !== key) {
      out ??= copyOf(o);
      if (cleanKey !== key) delete out[key];
      out[cleanKey] = after;
    }
  }
  return out ?? o;
}

/** A shallow copy with the same prototype (null-prototype records stay so; a `__proto__` key stays a key). */
function copyOf(o: Record<string, unknown>): Record<string, unknown> {
  return Object.defineProperties(Object.create(Object.getPrototypeOf(o) as object | null) as Record<string, unknown>, Object.getOwnPropertyDescriptors(o));
}

function isPlain(v: object): boolean {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Whether a secret occurs anywhere under `root`, walked without recursion (for values nested too deep). */
function holdsSecret(root: object, w: Walk): boolean {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (text(v, w) !== v) return true;
      continue;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) for (const item of v as unknown[]) stack.push(item);
    else if (v instanceof Error || isPlain(v)) {
      for (const key of Reflect.ownKeys(v)) {
        if (typeof key === 'string') stack.push(key);
        stack.push(Object.getOwnPropertyDescriptor(v, key)?.value);
      }
    }
  }
  return false;
}
