import type { RetryOptions } from './options.js';

/**
 * The computed wait before retry number `retry` (1 for the first retry): capped exponential
 * backoff with full jitter, `random() × min(maxDelayMs, baseDelayMs × 2^(retry−1))`.
 */
export function backoffDelay(retry: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(random() * ceiling);
}

/** A server-requested delay clamped to `[0, maxServerDelayMs]`. */
export function clampServerDelay(ms: number, options: Pick<RetryOptions, 'maxServerDelayMs'>): number {
  return Math.min(Math.max(0, ms), options.maxServerDelayMs);
}

/** The wait before retry number `retry`: the server's delay when it gave one (clamped), else the backoff. */
export function retryDelay(retry: number, serverDelayMs: number | undefined, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'maxServerDelayMs'>): number {
  return serverDelayMs === undefined ? backoffDelay(retry, options) : clampServerDelay(serverDelayMs, options);
}
