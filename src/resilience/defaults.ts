import type { CircuitBreakerOptions, RetryBudgetOptions, RetryOptions } from './options.js';

/** Default retry budget: 10 % of recent requests, at least 1 retry per second, over 10 s. */
export const DEFAULT_BUDGET: RetryBudgetOptions = { ratio: 0.1, minPerSecond: 1, windowMs: 10_000 };

/** Default retry settings (see {@link RetryOptions} for each field). */
export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxServerDelayMs: 30_000,
  ambiguous: false,
  retryableCodes: [],
  fatalCodes: [],
  budget: DEFAULT_BUDGET,
  lookUpSends: true,
};

/** Default circuit breaker: open after 5 consecutive health failures, probe again after 30 s. */
export const DEFAULT_BREAKER: CircuitBreakerOptions = { consecutiveFailures: 5, halfOpenAfterMs: 30_000 };

/**
 * Client-level and call-level retry settings merged over the defaults. A per-call object wins over
 * the client's settings, a client-level `false` included (the call's fields are merged over the
 * defaults then); a per-call `false`, or a client-level `false` with no per-call settings, means one
 * attempt only (`maxAttempts: 1`).
 */
export function resolveRetry(
  client: false | Partial<RetryOptions> | undefined,
  call?: false | Partial<RetryOptions>,
): RetryOptions {
  const merged: RetryOptions = { ...DEFAULT_RETRY, ...(client || {}), ...(call || {}) };
  if (call === false || (client === false && call === undefined)) {
    merged.maxAttempts = 1;
    merged.lookUpSends = false;
  }
  if (merged.budget !== false) merged.budget = { ...DEFAULT_BUDGET, ...merged.budget };
  return merged;
}
