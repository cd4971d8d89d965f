import type { A2AClientError } from '../errors/a2a-client-error.js';
import { classify } from './classify.js';
import type { RetryOptions } from './options.js';

/** Failures a stream keeps for its final error's `attempts`: the latest ones, so a long stream's memory stays flat. */
export const MAX_KEPT_ATTEMPTS = 64;

/**
 * The attempts of a resumed stream, counted as `retry.maxAttempts` counts a call's. A request that
 * fails without the stream having moved on is one attempt: a stream (the send's or a resubscribe's)
 * that fails, and each failed attempt of the pipeline inside a resume round or a poll. News — the
 * reconciliation state moved on (`StreamState.progress`: new content, a new status, the end), not
 * merely an event received — starts the count again, so the failure of a stream that brought news
 * is the first attempt of the new count. When `maxAttempts` attempts in a row brought no news, the
 * last failure ends the stream: with `maxAttempts: 3`, a send whose stream fails and two
 * resubscribes that bring nothing new and fail, three requests in all; with `retry: false` (one
 * attempt) the stream's first failure ends it. A poll that answers is not a failed attempt (the task
 * is only not done yet; `maxIdleMs` bounds that), nor is a resubscribe answered "unsupported" (it
 * leads to polling).
 */
export class ResumeAttempts {
  readonly #max: number;
  /** Failed attempts since the last news. */
  #streak = 0;
  readonly #kept: A2AClientError[] = [];

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  /** The stream moved on: the count starts again. */
  progress(): void {
    this.#streak = 0;
  }

  /** `count` attempts failed with `errors` (kept for the final error, the latest {@link MAX_KEPT_ATTEMPTS}). */
  failed(count: number, errors: readonly A2AClientError[]): void {
    this.#streak += count;
    for (const error of errors) this.#kept.push(error);
    if (this.#kept.length > MAX_KEPT_ATTEMPTS) this.#kept.splice(0, this.#kept.length - MAX_KEPT_ATTEMPTS);
  }

  /** Attempts left before the count is spent (at least 1 while it is not). */
  get left(): number {
    return this.#max - this.#streak;
  }

  /** `maxAttempts` attempts in a row failed without news: the stream ends with the last failure. */
  get spent(): boolean {
    return this.#streak >= this.#max;
  }

  /** Every failure kept, oldest first. */
  get list(): readonly A2AClientError[] {
    return this.#kept;
  }
}

/**
 * The final error of a stream past its commit point (its first event): `retryable` says whether a
 * later repeat may succeed, as `classify` judges the failure for a resubscribe; `ambiguous` is set
 * for a send (the agent has acted on it: repeating the send would run it again — follow the task
 * instead); `attempts` holds the stream's failures.
 */
export function streamFailure(error: A2AClientError, idempotent: boolean, retry: RetryOptions, attempts: readonly A2AClientError[]): A2AClientError {
  const verdict = classify(error, { method: 'subscribeToTask', idempotent: true, options: retry });
  return error.with({
    retryable: verdict.transient,
    ambiguous: idempotent ? undefined : true,
    attempts: attempts.length > 0 ? [...attempts] : error.attempts,
  });
}
