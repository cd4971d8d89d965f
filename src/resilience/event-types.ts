/**
 * The structured events of the resilience layers (`onEvent`, the diagnostics channels, spans): one
 * union, {@link ResilienceEvent}, discriminated by `type`.
 */

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
