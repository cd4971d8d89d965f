import type { RetryRule } from './retry-rule.js';

/**
 * Retry settings. `retry: false` turns retries off (one attempt: a stream is then not resumed
 * either); a per-call `retry` object overrides a client-level `false`.
 */
export interface RetryOptions {
  /**
   * Total attempts, the first one included. For a stream past its first event: attempts in a row
   * without news (each failed stream, resubscribe or poll attempt counts; news starts the count again).
   * @default 3
   */
  maxAttempts: number;
  /**
   * First computed backoff delay; doubles per attempt, with full jitter.
   * @default 200
   */
  baseDelayMs: number;
  /**
   * Cap of a computed backoff delay.
   * @default 5000
   */
  maxDelayMs: number;
  /**
   * Cap of a delay the server asks for (Retry-After, retry_after_ms, …).
   * @default 30000
   */
  maxServerDelayMs: number;
  /**
   * Repeat `sendMessage` / `sendStreamingMessage` (with the same `messageId`) after a failure that may
   * have reached the agent: a read or idle timeout, a reset mid-response, or a retryable code without
   * an explicit hint (a bare −32603, −32006, HTTP 500, 502, 504, 408, 425). Off by default because
   * sends are not idempotent and real servers do not deduplicate by `messageId`: a repeated send may
   * run the agent twice. Sends are retried regardless when the request provably never left (refused,
   * DNS, connect timeout), the server refused it unprocessed (a bare 429 or 503), or the server asked
   * for a retry (`retryable: true`, a delay hint).
   * Idempotent methods retry ambiguous failures either way; other non-idempotent methods never do.
   * @default false
   */
  ambiguous: boolean;
  /**
   * JSON-RPC codes (negative) or HTTP statuses (positive) to treat as retryable, overriding the A2A
   * defaults.
   * @default []
   */
  retryableCodes: readonly number[];
  /**
   * JSON-RPC codes (negative) or HTTP statuses (positive) to treat as fatal; wins over
   * `retryableCodes` and the defaults.
   * @default []
   */
  fatalCodes: readonly number[];
  /** Per-agent retry budget; `false` turns it off. */
  budget: RetryBudgetOptions | false;
  /**
   * Your own rule, asked after the built-in verdict for every failure of every loop (a call's
   * retries, a stream's resume rounds and polls, `waitForTask`): `ctx` = `{ error, method, attempt,
   * card, sent, verdict }`; answer `true` (repeat), `false` (don't), `{ delayMs }` (repeat after that
   * long) or `undefined` (keep the verdict). Deadline, `maxAttempts`, budget and breaker still bound
   * it; it is not asked about those bounds themselves. See docs/errors-and-retries.md for recipes.
   */
  shouldRetry?: RetryRule | undefined;
  /**
   * Find out what happened to a send whose fate is unknown (it failed after the request left: a reset
   * mid-answer, a read timeout) before giving up on it, where the agent can tell (v1.0 `ListTasks`):
   * a task it started is followed as if the answer had arrived; a send the agent provably never got
   * is repeated with the same `messageId`; otherwise the `ambiguous` error stands. Each lookup is
   * charged to the retry budget and bounded by the deadline; `onEvent` gets a `send-lookup` event.
   * `retry: false` turns it off too. See docs/errors-and-retries.md, "When a send's fate is unknown".
   * @default true
   */
  lookUpSends: boolean;
}

/** Retries may be at most `ratio` of recent requests, plus `minPerSecond`. */
export interface RetryBudgetOptions {
  /**
   * Share of recent requests that may be retries.
   * @default 0.1
   */
  ratio: number;
  /**
   * Retries always allowed per second, whatever the ratio.
   * @default 1
   */
  minPerSecond: number;
  /**
   * How far back "recent" reaches.
   * @default 10000
   */
  windowMs: number;
}

/** Per-agent circuit breaker settings. `circuitBreaker: false` turns it off. */
export interface CircuitBreakerOptions {
  /**
   * Consecutive health failures that open the breaker.
   * @default 5
   */
  consecutiveFailures: number;
  /**
   * Alternatively open on a failure ratio over a window (takes precedence when set).
   */
  sampling?: {
    /** Share of failed calls (0–1) that opens the breaker. */
    threshold: number;
    /** The window the share is measured over. */
    durationMs: number;
    /** Fewest calls per second before the share counts (cockatiel's `minimumRps`). */
    minimumRps?: number;
  };
  /**
   * Time the breaker stays open before letting one probe through.
   * @default 30000
   */
  halfOpenAfterMs: number;
}
