import { isA2AClientError } from '../errors/a2a-client-error.js';
import { AgentBreaker, breakerFor, markHealthFailure, type BreakerState } from './breaker.js';
import { budgetFor, type RetryBudget } from './budget.js';
import { Bulkhead } from './bulkhead.js';
import { classify } from './classify.js';
import { DeadlineScope } from './deadline.js';
import { DEFAULT_BREAKER, resolveRetry } from './defaults.js';
import { emitEvent, type EventSink } from './events.js';
import type { CircuitBreakerOptions, RetryOptions } from './options.js';
import { runWithRetry, type RetryRun } from './retry.js';

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
  /**
   * Fires on abort or at the deadline. The pipeline creates it on first read (an `AbortSignal` costs
   * ~1.5 µs on Node 20), so it is a getter: read or destructure it; a spread copy does not carry it.
   * An attempt that ignores it is still cut at the deadline.
   */
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
  // Resolved once: most calls carry no retry override of their own.
  const clientRetry = resolveRetry(options.retry);

  const execute = <T>(call: ResilientCall, attempt: (a: AttemptInfo) => Promise<T>): Promise<T> => {
    try {
      // Fast path: an open breaker refuses before any timer, slot or budget is touched.
      if (breaker?.isOpen()) {
        const open = breaker.openError().with({ agent: agentName, method: call.method });
        return Promise.reject(open.with({ attempts: [open] }));
      }
      const retry = call.retry === undefined ? clientRetry : resolveRetry(options.retry, call.retry);
      const run = new PipelineRun(agentName, call, retry, retry.budget === false ? undefined : budget, onEvent, breaker, attempt);
      return bulkhead ? withSlot(bulkhead, run) : runWithRetry(run);
    } catch (error) {
      return Promise.reject(error);
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

/** Waits for a bulkhead slot under the call's scope, then runs the call; the slot is released when it ends. */
async function withSlot<T>(bulkhead: Bulkhead, run: PipelineRun<T>): Promise<T> {
  // A free slot needs no signal to wait on (and creating one costs more than the rest of the call).
  let release = run.scope.aborted ? undefined : bulkhead.tryAcquire();
  if (!release) {
    try {
      release = await bulkhead.acquire(run.scope.signal);
    } catch (error) {
      run.scope.dispose();
      throw isA2AClientError(error) ? error.with({ agent: run.agent, method: run.method }) : error;
    }
  }
  try {
    return await runWithRetry(run);
  } finally {
    release();
  }
}

/**
 * One call in flight: what the retry loop needs, and its `run` — one attempt through the breaker,
 * cut at the deadline or on abort by the call's scope even when the attempt ignores its signal.
 */
class PipelineRun<T> implements RetryRun<T> {
  readonly method: string;
  readonly idempotent: boolean;
  readonly scope: DeadlineScope;
  readonly #breaker: AgentBreaker | undefined;
  readonly #attempt: (a: AttemptInfo) => Promise<T>;

  constructor(
    readonly agent: string,
    call: ResilientCall,
    readonly options: RetryOptions,
    readonly budget: RetryBudget | undefined,
    readonly onEvent: EventSink | undefined,
    breaker: AgentBreaker | undefined,
    attempt: (a: AttemptInfo) => Promise<T>,
  ) {
    this.method = call.method;
    this.idempotent = call.idempotent;
    this.scope = new DeadlineScope(call.deadline, call.signal);
    this.#breaker = breaker;
    this.#attempt = attempt;
  }

  run(n: number): Promise<T> {
    return this.#breaker ? this.#breaker.execute(() => this.#once(n)) : this.#once(n);
  }

  #once(n: number): Promise<T> {
    let outcome: Promise<T>;
    try {
      outcome = this.#attempt(new Attempt(n, this.scope));
    } catch (error) {
      outcome = Promise.reject(error);
    }
    return this.scope.race(outcome, this.#markFailure);
  }

  /** Marks a failed attempt's error as a health failure when it is one, before the breaker sees it. */
  readonly #markFailure = (error: unknown): void => {
    if (isA2AClientError(error) && classify(error, this).countsAsFailure) markHealthFailure(error);
    // A half-open probe cut by the caller proved nothing: count it, so the breaker re-opens
    // instead of closing (cockatiel closes on any error it is not told to count).
    else if (this.scope.aborted && this.#breaker?.state === 'half-open' && typeof error === 'object' && error !== null) markHealthFailure(error);
  };
}

/** The {@link AttemptInfo} of attempt `attempt`: its signal is the scope's, created on first read. */
class Attempt implements AttemptInfo {
  readonly #scope: DeadlineScope;

  constructor(
    readonly attempt: number,
    scope: DeadlineScope,
  ) {
    this.#scope = scope;
  }

  get signal(): AbortSignal {
    return this.#scope.signal;
  }
}
