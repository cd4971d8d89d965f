import { isA2AClientError } from '../errors/a2a-client-error.js';
import { AgentBreaker, breakerFor, markHealthFailure, type BreakerState } from './breaker.js';
import { budgetFor } from './budget.js';
import { Bulkhead } from './bulkhead.js';
import { classify } from './classify.js';
import { openScope, raceSignal } from './deadline.js';
import { DEFAULT_BREAKER, resolveRetry } from './defaults.js';
import { emitEvent, type EventSink } from './events.js';
import type { CircuitBreakerOptions, RetryOptions } from './options.js';
import { runWithRetry } from './retry.js';

/** Settings of one agent's pipeline (the client's options). */
export interface ResilienceOptions {
  retry?: false | Partial<RetryOptions> | undefined;
  circuitBreaker?: false | Partial<CircuitBreakerOptions> | undefined;
  /** Calls in flight at once through this pipeline; unlimited when unset. */
  maxConcurrent?: number | undefined;
  /** Calls that may wait for a slot. @default 0 */
  maxQueued?: number | undefined;
  onEvent?: EventSink | undefined;
}

/** One call through the pipeline. */
export interface ResilientCall {
  /** Protocol-independent method name, e.g. `sendMessage`. */
  method: string;
  /** Repeating the call cannot change the outcome. */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
  /** Absolute deadline over every attempt and wait, in `performance.now()` ms. */
  deadline: number;
  /** Per-call retry override; `false` for one attempt. */
  retry?: false | Partial<RetryOptions> | undefined;
}

/** What one attempt gets: its 1-based number and a signal that fires on abort or at the deadline. */
export interface AttemptInfo {
  attempt: number;
  signal: AbortSignal;
}

/** One agent's resilience pipeline. */
export interface Resilience {
  /**
   * Runs `attempt` under deadline → bulkhead → retry budget → retry (classified) → circuit breaker.
   * @throws A2AClientError carrying `agent`, `method`, `retryable`, `retryAfterMs` and every
   * attempt's error in `attempts`; kinds of its own: `deadline-exceeded`, `aborted`,
   * `budget-exhausted`, `bulkhead-rejected`, `circuit-open`.
   */
  execute<T>(call: ResilientCall, attempt: (a: AttemptInfo) => Promise<T>): Promise<T>;
  /** The agent's breaker, or `undefined` when `circuitBreaker: false`. */
  readonly breaker: AgentBreaker | undefined;
  /** Breaker state (`closed` when there is no breaker). */
  breakerState(): BreakerState;
  /** True when the breaker would refuse a call right now. */
  isOpen(): boolean;
  /** Retry settings of a call, resolved over the defaults (for stream resume). */
  retryOptions(call?: false | Partial<RetryOptions>): RetryOptions;
  /** Stops forwarding breaker transitions to `onEvent`. */
  dispose(): void;
}

/**
 * Builds the pipeline of one agent. The breaker and the retry budget are process-wide per
 * `agentKey` (the endpoint origin) and shared by every client of it; the bulkhead is per pipeline.
 * @param agentKey endpoint origin, e.g. `http://127.0.0.1:4000`.
 * @param agentName name put on errors and events.
 */
export function createResilience(agentKey: string, agentName: string, options: ResilienceOptions = {}): Resilience {
  const onEvent = options.onEvent;
  const breaker =
    options.circuitBreaker === false ? undefined : breakerFor(agentKey, { ...DEFAULT_BREAKER, ...options.circuitBreaker });
  const unlisten = breaker?.listen({
    open: (retryAfterMs) => emitEvent(onEvent, { type: 'breaker-open', agent: agentName, retryAfterMs, at: Date.now() }, false),
    halfOpen: () => emitEvent(onEvent, { type: 'breaker-half-open', agent: agentName, at: Date.now() }, false),
    close: () => emitEvent(onEvent, { type: 'breaker-close', agent: agentName, at: Date.now() }, false),
  });
  const bulkhead =
    options.maxConcurrent !== undefined && options.maxConcurrent > 0 ? new Bulkhead(options.maxConcurrent, options.maxQueued ?? 0) : undefined;
  const budget = budgetFor(agentKey);

  const execute = async <T>(call: ResilientCall, attempt: (a: AttemptInfo) => Promise<T>): Promise<T> => {
    // Fast path: an open breaker refuses before any timer, slot or budget is touched.
    if (breaker?.isOpen()) {
      const open = breaker.openError().with({ agent: agentName, method: call.method });
      throw open.with({ attempts: [open] });
    }
    const retry = resolveRetry(options.retry, call.retry);
    const scope = openScope(call.deadline, call.signal);
    let release: (() => void) | undefined;
    try {
      if (bulkhead) {
        try {
          release = await bulkhead.acquire(scope.signal);
        } catch (error) {
          throw isA2AClientError(error) ? error.with({ agent: agentName, method: call.method }) : error;
        }
      }
      const ctx = { method: call.method, idempotent: call.idempotent, options: retry };
      const once = async (n: number): Promise<T> => {
        try {
          return await raceSignal(attempt({ attempt: n, signal: scope.signal }), scope.signal);
        } catch (error) {
          if (isA2AClientError(error) && classify(error, ctx).countsAsFailure) markHealthFailure(error);
          // A half-open probe cut by the caller proved nothing: count it, so the breaker re-opens
          // instead of closing (cockatiel closes on any error it is not told to count).
          else if (scope.signal.aborted && breaker?.state === 'half-open' && typeof error === 'object' && error !== null) markHealthFailure(error);
          throw error;
        }
      };
      return await runWithRetry({
        agent: agentName,
        method: call.method,
        idempotent: call.idempotent,
        options: retry,
        scope,
        budget: retry.budget === false ? undefined : budget,
        onEvent,
        run: breaker ? (n) => breaker.execute(() => once(n)) : once,
      });
    } finally {
      release?.();
      scope.dispose();
    }
  };

  return {
    execute,
    breaker,
    breakerState: () => breaker?.state ?? 'closed',
    isOpen: () => breaker?.isOpen() ?? false,
    retryOptions: (call) => resolveRetry(options.retry, call),
    dispose: () => unlisten?.(),
  };
}
