import { lazy, z } from '../util/lazy-zod.js';
import type { A2AClientError } from './a2a-client-error.js';
import { delayFromHeaders } from './retry-after.js';
import { parseErrorDetails } from './rpc-details.js';

/** What the server said about repeating a request: the one place every hint is read. */
export interface RetryHints {
  /** An explicit yes/no from the server (`is_retriable`, `data.retryable`). */
  retryable?: boolean;
  /** An explicit delay in ms (`retry_after_ms`, `data.retryAfter`, RetryInfo, Retry-After, RateLimit). */
  retryAfterMs?: number;
  /** Where the first hint found came from, e.g. `problem`, `data`, `retry-info`, `header:retry-after`. */
  source?: string;
}

const nonNegative = lazy(() => z.number().check(z.nonnegative()));
const problemHints = lazy(() => z.object({
  is_retriable: z.catch(z.optional(z.boolean()), undefined),
  retry_after_ms: z.catch(z.optional(nonNegative), undefined),
  retry_after_seconds: z.catch(z.optional(nonNegative), undefined),
}));
const dataHints = lazy(() => z.object({
  retryable: z.catch(z.optional(z.boolean()), undefined),
  retryAfter: z.catch(z.optional(nonNegative), undefined),
  retry_after_ms: z.catch(z.optional(nonNegative), undefined),
}));
/** Hints read from an error before its text was redacted (see `redactFailure`), by the redacted copy. */
const kept = new WeakMap<A2AClientError, RetryHints>();

/** Makes {@link hintsOf} answer `hints` for `error` (a redacted copy of the error they were read from). */
export function keepHints(error: A2AClientError, hints: RetryHints): void {
  kept.set(error, hints);
}

/**
 * Reads the server's retry hints from an error, in this order: problem+json (`is_retriable`,
 * `retry_after_ms`, `retry_after_seconds`), JSON-RPC `data` (`retryable`, `retryAfter` seconds,
 * `retry_after_ms`), v1.0 `google.rpc.RetryInfo.retryDelay` in `data` or `rpcStatus.details`, then
 * headers (`Retry-After`, RateLimit). The first value found for each field wins. Never throws.
 */
export function hintsOf(err: A2AClientError, nowMs: number = Date.now()): RetryHints {
  const known = kept.get(err);
  if (known) return known;
  const hints: RetryHints = {};
  const set = (field: 'retryable' | 'retryAfterMs', value: boolean | number | undefined, source: string): void => {
    if (value === undefined || hints[field] !== undefined) return;
    if (field === 'retryable' && typeof value === 'boolean') hints.retryable = value;
    if (field === 'retryAfterMs' && typeof value === 'number') hints.retryAfterMs = Math.round(value);
    hints.source ??= source;
  };
  const problem = problemHints.safeParse(err.problem);
  if (problem.success) {
    const p = problem.data;
    set('retryable', p.is_retriable, 'problem');
    set('retryAfterMs', p.retry_after_ms ?? (p.retry_after_seconds === undefined ? undefined : p.retry_after_seconds * 1000), 'problem');
  }
  const data = dataHints.safeParse(err.data);
  if (data.success) {
    const d = data.data;
    set('retryable', d.retryable, 'data');
    set('retryAfterMs', d.retry_after_ms ?? (d.retryAfter === undefined ? undefined : d.retryAfter * 1000), 'data');
  }
  const details = err.details ?? parseErrorDetails(err.data) ?? parseErrorDetails(err.rpcStatus?.details);
  set('retryAfterMs', details?.retryDelayMs, 'retry-info');
  readPushback(err.headers?.['grpc-retry-pushback-ms'], set);
  if (hints.retryAfterMs === undefined) {
    const fromHeaders = delayFromHeaders(err.headers, nowMs, err.status);
    if (fromHeaders) set('retryAfterMs', fromHeaders.ms, fromHeaders.source);
  }
  return hints;
}

/**
 * gRFC A6 server pushback (`grpc-retry-pushback-ms` trailer): a non-negative integer is the delay
 * before a retry; a negative or unparseable value asks the client not to retry at all.
 */
function readPushback(value: string | undefined, set: (field: 'retryable' | 'retryAfterMs', value: boolean | number | undefined, source: string) => void): void {
  if (value === undefined) return;
  if (/^\d{1,9}$/.test(value.trim())) set('retryAfterMs', Number(value.trim()), 'header:grpc-retry-pushback-ms');
  else set('retryable', false, 'header:grpc-retry-pushback-ms');
}
