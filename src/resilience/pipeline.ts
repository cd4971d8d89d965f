import { isA2AClientError } from '../errors/a2a-client-error.js';
import { CallScope } from '../transport/call-scope.js';
import type { AgentState } from './agent-state.js';
import { processAgentStates, type AgentStateStore } from './agent-state-store.js';
import { markHealthFailure, type AgentBreaker, type BreakerListener, type BreakerState } from './breaker.js';
import type { RetryBudget } from './budget.js';
import { Bulkhead } from './bulkhead.js';
import { DEFAULT_BREAKER, resolveRetry } from './defaults.js';
import type { CallTrace } from './call-trace.js';
import { emitEvent, type EventSink } from './events.js';
import type { CircuitBreakerOptions, RetryOptions } from './options.js';
import { runWithRetry, type RetryRun } from './retry.js';
import { RetryPolicy } from './retry-policy.js';
import type { AgentCard } from '../protocol/card-model.js';

/** Settings of one agent's pipeline (the client's options). */
export interface ResilienceOptions {
  retry?: false | Partial<RetryOptions> | undefined;
  circuitBreaker?: false | Partial<CircuitBreakerOptions> | undefined;
  /** Calls in flight at once through this pipeline; unlimited when unset. */
  maxConcurrent?: number | undefined;
  /** Calls that may wait for a slot. @default 0 */
  maxQueued?: number | undefined;
  onEvent?: EventSink | undefined;
  /**
   * Where the agent's breaker and retry budget live; a shared store's `shared-state` events reach
   * `onEvent` with this agent's name. @default the process-wide store
   */
  store?: AgentStateStore | undefined;
  /** The agent's card, handed to `retry.shouldRetry` (absent while the card itself is fetched). */
  card?: AgentCard | undefined;
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
  /** The setting `deadline` came from, named in its `deadline-exceeded` (e.g. `call.timeouts.totalMs`). */
  deadlineName?: string | undefined;
  /** An enclosing scope (a resumed stream's): the call's scope opens inside it, and `signal` and `deadline` are not read. */
  scope?: CallScope | undefined;
  /** Per-call retry override; `false` for one attempt. */
  retry?: false | Partial<RetryOptions> | undefined;
  /** The call's span: its attempts run in its context, and its retries, waits and refusals are recorded on it. */
  trace?: CallTrace | undefined;
  /**
   * The call opens a stream: while the breaker is closed, an attempt that opens it is not counted
   * as a success yet — the stream reports how it went with {@link Resilience.streamOutcome}.
   */
  opensStream?: boolean | undefined;
  /**
   * The call is a stream's resume round (a resubscribe after the stream failed): the retry budget
   * charges its first attempt as a retry, not as a new request, and refuses it (kind
   * `budget-exhausted`) when spent.
   */
  resumeRound?: boolean | undefined;
  /** At most this many attempts, below the retry settings' `maxAttempts` (a resume round gets what the stream has left). */
  maxAttempts?: number | undefined;
}

/**
 * What one attempt gets: its 1-based number and the call's scope (its deadline and the caller's
 * signal), to hand down to the request. An attempt that ignores the scope is still cut at the deadline.
 */
export interface AttemptInfo {
  readonly attempt: number;
  readonly scope: CallScope;
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
  /** The agent's breaker now, or `undefined` when `circuitBreaker: false`. */
  readonly breaker: AgentBreaker | undefined;
  /** Breaker state (`closed` when there is no breaker). */
  breakerState(): BreakerState;
  /** True when the breaker would refuse a call right now. */
  isOpen(): boolean;
  /**
   * How a stream opened with `opensStream` went, for the breaker: `false` when it brought news (a
   * success), `true` when it failed later with a health failure. Ignored without a breaker.
   */
  streamOutcome(healthFailure: boolean): void;
  /** The retry policy of a call: the client's, or the client's under the call's `retry` override. */
  policy(call?: false | Partial<RetryOptions>): RetryPolicy;
  /** Stops forwarding breaker transitions and the store's events to `onEvent`. */
  dispose(): void;
}

/**
 * Builds the pipeline of one agent. The breaker and the retry budget are per `agentKey` (the
 * endpoint origin) in `options.store` (the process-wide store by default), shared by every client of
 * it; the bulkhead is per pipeline. The store may drop the agent's state while it is idle (no call in
 * flight, breaker closed): the next call then uses the origin's current state, as a fresh one would.
 * @param agentKey endpoint origin, e.g. `http://127.0.0.1:4000`.
 * @param agentName name put on errors and events.
 */
export function createResilience(agentKey: string, agentName: string, options: ResilienceOptions = {}): Resilience {
  const onEvent = options.onEvent;
  const store = options.store ?? processAgentStates;
  const breakerOptions: CircuitBreakerOptions | undefined =
    options.circuitBreaker === false ? undefined : { ...DEFAULT_BREAKER, ...options.circuitBreaker };
  const listener: BreakerListener = {
    open: (retryAfterMs) => emitEvent(onEvent, { type: 'breaker-open', agent: agentName, retryAfterMs, at: Date.now() }, false),
    halfOpen: () => emitEvent(onEvent, { type: 'breaker-half-open', agent: agentName, at: Date.now() }, false),
    close: () => emitEvent(onEvent, { type: 'breaker-close', agent: agentName, at: Date.now() }, false),
  };
  let state: AgentState;
  let breaker: AgentBreaker | undefined;
  let unlisten: (() => void) | undefined;
  let disposed = false;
  const unlistenStore =
    onEvent && store.listen ? store.listen((event) => emitEvent(onEvent, { ...event, agent: agentName }, false)) : undefined;
  /** Takes the origin's current state from the store (again, after an eviction). */
  const attach = (): AgentState => {
    unlisten?.();
    state = store.get(agentKey);
    breaker = breakerOptions === undefined ? undefined : state.breaker(breakerOptions);
    unlisten = disposed ? undefined : breaker?.listen(listener);
    return state;
  };
  state = attach();
  const current = (): AgentState => (state.evicted ? attach() : state);
  const bulkhead =
    options.maxConcurrent !== undefined && options.maxConcurrent > 0 ? new Bulkhead(options.maxConcurrent, options.maxQueued ?? 0) : undefined;
  // Built once: most calls carry no retry override of their own.
  const clientPolicy = new RetryPolicy(resolveRetry(options.retry), options.card);
  const policyOf = (retry: false | Partial<RetryOptions> | undefined): RetryPolicy =>
    retry === undefined ? clientPolicy : clientPolicy.with(resolveRetry(options.retry, retry));

  const execute = <T>(call: ResilientCall, attempt: (a: AttemptInfo) => Promise<T>): Promise<T> => {
    try {
      const agent = current();
      // Fast path: an open breaker refuses before any timer, slot or budget is touched.
      if (breaker?.isOpen()) {
        const open = breaker.openError().with({ agent: agentName, method: call.method });
        call.trace?.circuitOpen(open.retryAfterMs ?? 0);
        return Promise.reject(open.with({ attempts: [open], retryable: clientPolicy.transient(open, call.method, call.idempotent) }));
      }
      const resolved = policyOf(call.retry);
      const max = resolved.options.maxAttempts;
      const policy = call.maxAttempts !== undefined && call.maxAttempts < max ? resolved.with({ ...resolved.options, maxAttempts: Math.max(1, call.maxAttempts) }) : resolved;
      const run = new PipelineRun(agentName, call, policy, policy.options.budget === false ? undefined : agent.budget, onEvent, breaker, attempt, agent);
      agent.enter();
      return bulkhead ? withSlot(bulkhead, run) : runWithRetry(run);
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return {
    execute,
    get breaker() {
      current();
      return breaker;
    },
    breakerState: () => {
      current();
      return breaker?.state ?? 'closed';
    },
    isOpen: () => {
      current();
      return breaker?.isOpen() ?? false;
    },
    streamOutcome: (healthFailure) => {
      current();
      breaker?.recordLate(healthFailure);
    },
    policy: policyOf,
    dispose: () => {
      disposed = true;
      unlisten?.();
      unlisten = undefined;
      unlistenStore?.();
    },
  };
}

/** Waits for a bulkhead slot under the call's scope, then runs the call; the slot is released when it ends. */
async function withSlot<T>(bulkhead: Bulkhead, run: PipelineRun<T>): Promise<T> {
  let release = run.scope.aborted ? undefined : bulkhead.tryAcquire();
  if (!release) {
    try {
      release = await bulkhead.acquire(run.scope);
    } catch (error) {
      run.scope.dispose();
      run.end();
      throw isA2AClientError(error) ? error.with({ agent: run.agent, method: run.method, retryable: run.policy.transient(error, run.method, run.idempotent) }) : error;
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
 * cut at the deadline or on abort by the call's scope even when the attempt ignores the scope.
 */
class PipelineRun<T> implements RetryRun<T> {
  readonly method: string;
  readonly idempotent: boolean;
  readonly scope: CallScope;
  readonly #breaker: AgentBreaker | undefined;
  readonly #attempt: (a: AttemptInfo) => Promise<T>;
  readonly #state: AgentState;
  readonly trace: CallTrace | undefined;
  readonly resumeRound: boolean;
  readonly #countSuccess: boolean;

  constructor(
    readonly agent: string,
    call: ResilientCall,
    readonly policy: RetryPolicy,
    readonly budget: RetryBudget | undefined,
    readonly onEvent: EventSink | undefined,
    breaker: AgentBreaker | undefined,
    attempt: (a: AttemptInfo) => Promise<T>,
    state: AgentState,
  ) {
    this.method = call.method;
    this.idempotent = call.idempotent;
    this.scope = new CallScope({ parent: call.scope, deadline: call.deadline, signal: call.signal, deadlineName: call.deadlineName });
    this.#breaker = breaker;
    this.#attempt = attempt;
    this.#state = state;
    this.trace = call.trace;
    this.resumeRound = call.resumeRound === true;
    this.#countSuccess = call.opensStream !== true;
  }

  /** The call ended: the agent's state is no longer in use by it. */
  end(): void {
    this.#state.leave();
  }

  run(n: number): Promise<T> {
    return this.#breaker ? this.#breaker.execute(() => this.#once(n), this.#countSuccess, this.scope) : this.#once(n);
  }

  #once(n: number): Promise<T> {
    let outcome: Promise<T>;
    try {
      const info: AttemptInfo = { attempt: n, scope: this.scope };
      outcome = this.trace ? this.trace.run(() => this.#attempt(info)) : this.#attempt(info);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    return this.scope.race(outcome, this.#markFailure);
  }

  /** Marks a failed attempt's error as a health failure when it is one, before the breaker sees it. */
  readonly #markFailure = (error: unknown): void => {
    if (isA2AClientError(error) && this.policy.healthFailure(error)) markHealthFailure(error);
    // A half-open probe cut by the caller proved nothing: count it, so the breaker re-opens
    // instead of closing (cockatiel closes on any error it is not told to count).
    else if (this.scope.aborted && this.#breaker?.state === 'half-open' && typeof error === 'object' && error !== null) markHealthFailure(error);
  };
}
