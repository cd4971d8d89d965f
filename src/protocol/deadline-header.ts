/**
 * The header that carries a caller's remaining deadline to the next agent in a chain, in whole
 * milliseconds *remaining* (relative, so clocks need not agree). A client with
 * `propagateDeadline: true` sends it on every attempt; an agent reads it with {@link readDeadline}
 * and uses it as the `totalMs` of its own downstream calls.
 */
export const DEADLINE_HEADER = 'a2a-deadline-ms';

/** The header value for a deadline `remainingMs` away (never negative). */
export function deadlineHeaderValue(remainingMs: number): string {
  return String(Math.max(0, Math.floor(remainingMs)));
}

/**
 * The remaining deadline an incoming request carries, in ms, or `undefined` when it has none or the
 * value is not a non-negative integer. Accepts a Fetch `Headers`, Node's `IncomingHttpHeaders`, or a
 * plain record.
 */
export function readDeadline(
  headers: Headers | Record<string, string | string[] | undefined>,
): number | undefined {
  const raw = headers instanceof Headers ? headers.get(DEADLINE_HEADER) : pick(headers);
  if (raw === null || raw === undefined || !/^\d{1,12}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

function pick(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== DEADLINE_HEADER) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
