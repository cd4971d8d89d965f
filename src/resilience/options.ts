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

/**
 * The store behind `sharedState` (`a2a-resilient/redis`) lost (`degraded`) or regained (`restored`)
 * its backend. While degraded, calls go on with this process's own breaker and budget; nothing
 * reaches callers. `agent` is the client's agent when delivered to its `onEvent`, and `'*'` (every
 * agent of the store) on the diagnostics channel and the store's own `onEvent`.
 */
export interface SharedStateEvent {
  /** Always `shared-state`. */
  type: 'shared-state';
  /** The client's agent, or `'*'` (see above). */
  agent: string;
  /** Whether the store was lost or regained. */
  status: 'degraded' | 'restored';
  /** Why, for logs: e.g. `connection refused`, `no answer within 1000 ms`. */
  reason: string;
  /** When it happened (ms since the epoch). */
  at: number;
}

/**
 * The cancel `cancelOnAbort` sent for a task whose call was abandoned, and how it ended. Sent once, in
 * the background, with its own deadline (2 s); the caller never waits for it.
 */
export interface CancelEvent {
  /** Always `cancel`. */
  type: 'cancel';
  /** The agent the task runs at. */
  agent: string;
  /** The call that abandoned the task, e.g. `sendStreamingMessage`, `subscribeToTask`. */
  method: string;
  /** The abandoned task. */
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
  /** When the outcome was known (ms since the epoch). */
  at: number;
}

/**
 * A send whose fate was unknown (`ambiguous`) was looked up at the agent (`retry.lookUpSends`):
 * `found` — it started a task, which the call follows as if the answer had arrived; `absent` — the
 * agent never got it, and it is sent again with the same `messageId`; `unknown` — the agent could not
 * tell (no `ListTasks`, the lookup failed, an answer that proves nothing, no time left): the
 * `ambiguous` error reaches the caller.
 */
export interface SendLookupEvent {
  /** Always `send-lookup`. */
  type: 'send-lookup';
  /** The agent's name. */
  agent: string;
  /** The send: `sendMessage` or `sendStreamingMessage`. */
  method: string;
  /** The `messageId` looked for. */
  messageId: string;
  /** What the lookup found (see above). */
  outcome: 'found' | 'absent' | 'unknown';
  /** The task the send started, when found. */
  taskId?: string;
  /** Requests the lookup made (`ListTasks` pages, or one `GetTask`), retries included. */
  requests: number;
  /** From the send's failure to the outcome, the wait before looking included. */
  elapsedMs: number;
  /** When the outcome was known (ms since the epoch). */
  at: number;
}

/** Longest a `cancelOnAbort` cancel may take (its own deadline, not the abandoned call's). */
export const CANCEL_DEADLINE_MS = 2_000;

/** A structured event for logs, metrics and traces (`options.onEvent`, `diagnostics_channel`). */
export type ResilienceEvent =
  /** A failed attempt will be repeated after `delayMs`. */
  | {
      /** The event's kind. */
      type: 'retry';
      /** The agent's name. */
      agent: string;
      /** The method called, e.g. `sendMessage`. */
      method: string;
      /** The attempt that failed (1 is the first). */
      attempt: number;
      /** The wait before the next attempt. */
      delayMs: number;
      /** Why it is repeated (the classification's reason, e.g. `transport:before-send`, `hint:delay(header:retry-after)`). */
      reason: string;
      /** The attempt's error. */
      error: unknown;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  /** The call failed for good: no more attempts. */
  | {
      /** The event's kind. */
      type: 'give-up';
      /** The agent's name. */
      agent: string;
      /** The method called, e.g. `sendMessage`. */
      method: string;
      /** How many attempts were made. */
      attempts: number;
      /** Why it stopped, e.g. `max-attempts(…)`, `budget-exhausted(…)`, `deadline`. */
      reason: string;
      /** The final error. */
      error: unknown;
      /** From the call's start to giving up. */
      elapsedMs: number;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  /** The agent's breaker opened: calls fail fast with `circuit-open`. */
  | {
      /** The event's kind. */
      type: 'breaker-open';
      /** The agent's name. */
      agent: string;
      /** The method whose outcome moved the breaker, when known. */
      method?: string;
      /** Time until one probe is let through. */
      retryAfterMs: number;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  /** The breaker lets one probe call through. */
  | {
      /** The event's kind. */
      type: 'breaker-half-open';
      /** The agent's name. */
      agent: string;
      /** The method whose outcome moved the breaker, when known. */
      method?: string;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  /** The breaker closed: the probe succeeded. */
  | {
      /** The event's kind. */
      type: 'breaker-close';
      /** The agent's name. */
      agent: string;
      /** The method whose outcome moved the breaker, when known. */
      method?: string;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  /** The agent's retry budget is spent: a failure is not repeated. */
  | {
      /** The event's kind. */
      type: 'budget-exhausted';
      /** The agent's name. */
      agent: string;
      /** The method called, e.g. `sendMessage`. */
      method: string;
      /** The attempt that failed and was not repeated. */
      attempt: number;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  /** A stream dropped before its task ended: the client resumes it after `delayMs`. */
  | {
      /** The event's kind. */
      type: 'resubscribe';
      /** The agent's name. */
      agent: string;
      /** The method called, e.g. `sendMessage`. */
      method: string;
      /** The task being followed. */
      taskId: string;
      /** How many times this stream has been resumed, this one included. */
      attempt: number;
      /** The wait before resuming. */
      delayMs: number;
      /** What ended the stream (an error kind, e.g. `connection`, `idle-timeout`). */
      reason: string;
      /** When it happened (ms since the epoch). */
      at: number;
    }
  | SharedStateEvent
  | CancelEvent
  | SendLookupEvent;
