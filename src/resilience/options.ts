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
  sampling?: { threshold: number; durationMs: number; minimumRps?: number };
  /**
   * Time the breaker stays open before letting one probe through.
   * @default 30000
   */
  halfOpenAfterMs: number;
}

/**
 * The store behind `sharedState` (`a2a-resilient/redis`) lost (`degraded`) or regained (`restored`)
 * its backend. While degraded, calls go on with this process's own breaker and budget; nothing
 * reaches callers. `agent` is the client's agent when delivered to its `onEvent`, and `'*'` (every
 * agent of the store) on the diagnostics channel and the store's own `onEvent`.
 */
export interface SharedStateEvent {
  type: 'shared-state';
  agent: string;
  status: 'degraded' | 'restored';
  /** Why, for logs: e.g. `connection refused`, `no answer within 1000 ms`. */
  reason: string;
  at: number;
}

/**
 * The cancel `cancelOnAbort` sent for a task whose call was abandoned, and how it ended. Sent once, in
 * the background, with its own deadline (2 s); the caller never waits for it.
 */
export interface CancelEvent {
  type: 'cancel';
  agent: string;
  /** The call that abandoned the task, e.g. `sendStreamingMessage`, `subscribeToTask`. */
  method: string;
  taskId: string;
  /** Why the task was abandoned: the caller's signal, the call's deadline, or the reader left the stream early. */
  reason: 'aborted' | 'deadline-exceeded' | 'left';
  /**
   * `canceled`: the agent answered with the task canceled. `requested`: it accepted the cancel but its
   * answer still shows the task running (it ends later). `not-cancelable`: the agent refused
   * (`TaskNotCancelable`) or the task had ended otherwise meanwhile. `failed`: no answer within the
   * cancel's deadline, the client was closed, or another error (`errorKind`, `error`).
   */
  outcome: 'canceled' | 'requested' | 'not-cancelable' | 'failed';
  /** The task's state in the agent's answer, when it answered with the task. */
  state?: string;
  /** The error's `kind` when the cancel did not succeed (e.g. `deadline-exceeded`, `json-rpc`). */
  errorKind?: string;
  /** The error, when the cancel did not succeed. */
  error?: unknown;
  /** From the abandonment to the cancel's outcome. */
  elapsedMs: number;
  at: number;
}

/** Longest a `cancelOnAbort` cancel may take (its own deadline, not the abandoned call's). */
export const CANCEL_DEADLINE_MS = 2_000;

/** A structured event for logs, metrics and traces (`options.onEvent`, `diagnostics_channel`). */
export type ResilienceEvent =
  | { type: 'retry'; agent: string; method: string; attempt: number; delayMs: number; reason: string; error: unknown; at: number }
  | { type: 'give-up'; agent: string; method: string; attempts: number; reason: string; error: unknown; elapsedMs: number; at: number }
  | { type: 'breaker-open'; agent: string; method?: string; retryAfterMs: number; at: number }
  | { type: 'breaker-half-open'; agent: string; method?: string; at: number }
  | { type: 'breaker-close'; agent: string; method?: string; at: number }
  | { type: 'budget-exhausted'; agent: string; method: string; attempt: number; at: number }
  | { type: 'resubscribe'; agent: string; method: string; taskId: string; attempt: number; delayMs: number; reason: string; at: number }
  | SharedStateEvent
  | CancelEvent;
