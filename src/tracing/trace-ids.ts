/**
 * The trace id a failed call's span had, kept beside the error the caller received (a WeakMap: the
 * error object itself is not changed), so `wrapDownstreamError` can name the trace in what an agent
 * returns to its own caller.
 */
const traceIds = new WeakMap<object, string>();

/** Remembers that `error` ended a call traced as `traceId`. */
export function rememberTraceId(error: unknown, traceId: string): void {
  if (typeof error === 'object' && error !== null) traceIds.set(error, traceId);
}

/** The trace id of the call `error` ended, when that call was traced. */
export function traceIdOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? traceIds.get(error) : undefined;
}
