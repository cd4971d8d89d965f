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
import { maskText } from './mask-text.js';
import { headerSecrets, urlSecrets } from './secrets.js';
import { heldSecrets } from './held-secrets.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Nesting beyond which a subtree that holds a secret is replaced whole (no recursion that deep). */
const MAX_DEPTH = 64;

/**
 * A request's failure with the values of the headers it sent (and the secrets of its URL, see
 * {@link urlSecrets}, and those the SDK holds for the bodies it sends, see `held-secrets.ts`) removed ({@link headerSecrets}, {@link redactSecrets}): what every binding and
 * the card fetch throw. The server's retry hints are read before redaction and kept with the
 * redacted copy, so a header value that happens to equal a `Retry-After` cannot erase it. Never throws.
 */
export function redactFailure<T>(error: T, headers: Readonly<Record<string, string>>, url?: string): T {
  const secrets = [...new Set([...headerSecrets(headers), ...urlSecrets(url), ...heldSecrets()])].sort((a, b) => b.length - a.length);
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
    if (!isA2AClientError(error)) return new Error(maskText(String(failure), walk)) as T;
    return new A2AClientError({ kind: error.kind, message: maskText(error.message, walk), method: error.method, retryable: error.retryable, ambiguous: error.ambiguous, phase: error.phase }) as T;
  }
}

function value(v: unknown, w: Walk, depth: number): unknown {
  if (typeof v === 'string') return maskText(v, w);
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
const KEEP: ReadonlySet<string> = new Set(['kind', 'phase', 'reason', 'method', 'retryable', 'ambiguous', 'retryAfterMs', 'status', 'code']);

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
  const stack = e.stack === undefined ? undefined : maskText(e.stack, w);
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
  const message = own ? undefined : maskText(String(e.message), w);
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
    const cleanKey = maskText(key, w);
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
      if (maskText(v, w) !== v) return true;
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
