import type { A2AClientError } from '../errors/a2a-client-error.js';
import type { Resilience } from './pipeline.js';
import type { RetryPolicy } from './retry-policy.js';

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
 *
 * It also tells the agent's breaker how each source (the send's stream, a resubscribe's) went, as
 * the pipeline does for an attempt: the first news is its success, a later health failure a failure.
 */
export class ResumeAttempts {
  readonly #max: number;
  readonly #resilience: Resilience | undefined;
  readonly #policy: RetryPolicy;
  /** Failed attempts since the last news. */
  #streak = 0;
  readonly #kept: A2AClientError[] = [];
  /** The current source brought news (and the breaker heard of its success). */
  #sourceNews = false;

  constructor(policy: RetryPolicy, resilience: Resilience | undefined) {
    this.#max = Math.max(1, policy.options.maxAttempts);
    this.#policy = policy;
    this.#resilience = resilience;
  }

  /** The stream moved on: the count starts again. */
  progress(): void {
    this.#streak = 0;
  }

  /** The stream moved on while reading a source: the count starts again; the breaker hears of the source's success once. */
  news(): void {
    this.#streak = 0;
    if (this.#sourceNews) return;
    this.#sourceNews = true;
    this.#resilience?.streamOutcome(false);
  }

  /** A new source (a resubscribe) is being read. */
  newSource(): void {
    this.#sourceNews = false;
  }

  /** The source being read failed: one attempt (a health failure counts in the breaker). True when the attempts are spent. */
  sourceFailed(error: A2AClientError): boolean {
    if (this.#policy.healthFailure(error)) this.#resilience?.streamOutcome(true);
    this.failed(1, [error]);
    return this.spent;
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
 * later repeat may succeed, as the policy judges the failure for a resubscribe; `ambiguous` is set
 * for a send (the agent has acted on it: repeating the send would run it again — follow the task
 * instead); `attempts` holds the stream's failures.
 */
export function streamFailure(error: A2AClientError, idempotent: boolean, policy: RetryPolicy, attempts: readonly A2AClientError[]): A2AClientError {
  return error.with({
    retryable: policy.transient(error, 'subscribeToTask', true),
    ambiguous: idempotent ? undefined : true,
    attempts: attempts.length > 0 ? [...attempts] : error.attempts,
  });
}
