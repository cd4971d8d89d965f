/**
 * Parsers for server-sent delay hints: `Retry-After` (RFC 9110), the RateLimit reset headers
 * (`RateLimit-Reset`, `X-RateLimit-Reset`, structured `RateLimit: …;t=N`) and google.protobuf
 * Duration strings. All return milliseconds, or `undefined` for anything they do not understand;
 * none throws.
 */

/** Decimal seconds as whole milliseconds; `undefined` when the number is not finite (hundreds of digits). */
function secondsToMs(seconds: string | number): number | undefined {
  const ms = Math.round(Number(seconds) * 1000);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Values above this many seconds in a `*-Reset` header are read as a Unix epoch time. */
const EPOCH_THRESHOLD_S = 1_000_000_000;

/**
 * `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT`, relative to `nowMs`
 * (epoch ms). A date in the past gives 0.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return secondsToMs(text);
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * A RateLimit reset value: delta seconds, or (when very large) a Unix epoch in seconds, relative to `nowMs`.
 */
export function parseRateLimitReset(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const seconds = Number(text);
  if (!Number.isFinite(seconds)) return undefined;
  if (seconds >= EPOCH_THRESHOLD_S) return Math.max(0, Math.round(seconds * 1000 - nowMs));
  return secondsToMs(seconds);
}

/**
 * The structured `RateLimit` header (draft-ietf-httpapi-ratelimit-headers), e.g.
 * `"default";r=0;t=30` → 30000: the largest `t` of the items whose remaining quota `r` is 0. With
 * `limited` (the response itself says the request was refused for load: 429, 503) an item without
 * `r`, or any item when none is spent, counts too. A quota that is not spent is no request to wait.
 */
export function parseStructuredRateLimit(value: string | undefined, limited = false): number | undefined {
  if (value === undefined) return undefined;
  let best: number | undefined;
  let exhaustedBest: number | undefined;
  for (const item of value.split(',')) {
    const params = new Map<string, string>();
    for (const piece of item.split(';').slice(1)) {
      const eq = piece.indexOf('=');
      if (eq > 0) params.set(piece.slice(0, eq).trim().toLowerCase(), piece.slice(eq + 1).trim());
    }
    const t = params.get('t');
    if (t === undefined || !/^\d+(\.\d+)?$/.test(t)) continue;
    const ms = secondsToMs(t);
    if (ms === undefined) continue;
    best = Math.max(best ?? 0, ms);
    if (params.get('r') === '0') exhaustedBest = Math.max(exhaustedBest ?? 0, ms);
  }
  return exhaustedBest ?? (limited ? best : undefined);
}

/** A google.protobuf Duration in JSON form, e.g. `"1.5s"` → 1500, `"3s"` → 3000. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  if (match?.[1] === undefined) return undefined;
  return secondsToMs(match[1]);
}

/** Statuses that say the request was refused for load: only then is a RateLimit reset a delay to wait. */
const LIMITED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * The delay a set of response headers (lower-cased names) asks for: `retry-after` first, then the
 * RateLimit headers — `ratelimit` (`t=`), `ratelimit-reset`, `x-ratelimit-reset` — but only where they
 * say the quota is spent (`r=0`, `*-remaining: 0`) or `status` is 429 or 503: servers send RateLimit
 * headers on every response, and a reset time with quota left is information, not a request to wait.
 * Returns the value and the header it came from.
 */
export function delayFromHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  nowMs: number = Date.now(),
  status?: number,
): { ms: number; source: string } | undefined {
  if (!headers) return undefined;
  const retryAfter = parseRetryAfter(headers['retry-after'], nowMs);
  if (retryAfter !== undefined) return { ms: retryAfter, source: 'header:retry-after' };
  const limited = status !== undefined && LIMITED_STATUSES.has(status);
  const structured = parseStructuredRateLimit(headers['ratelimit'], limited);
  if (structured !== undefined) return { ms: structured, source: 'header:ratelimit' };
  for (const prefix of ['ratelimit', 'x-ratelimit']) {
    const spent = headers[`${prefix}-remaining`]?.trim() === '0';
    if (!limited && !spent) continue;
    const reset = parseRateLimitReset(headers[`${prefix}-reset`], nowMs);
    if (reset !== undefined) return { ms: reset, source: `header:${prefix}-reset` };
  }
  return undefined;
}
