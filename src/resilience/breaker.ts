import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  SamplingBreaker,
  circuitBreaker,
  handleWhen,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { z } from 'zod';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { emitEvent } from './events.js';
import type { CircuitBreakerOptions } from './options.js';

/** Breaker state as callers see it. */
export type BreakerState = 'closed' | 'open' | 'half-open' | 'isolated';

/** Transition callbacks of an {@link AgentBreaker}. */
export interface BreakerListener {
  open(retryAfterMs: number): void;
  halfOpen(): void;
  close(): void;
}

const healthFailures = new WeakSet<object>();

/** Marks an error as a health failure, so the breaker it passes through counts it. */
export function markHealthFailure(error: object): void {
  healthFailures.add(error);
}

function isHealthFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && healthFailures.has(error);
}

const savedState = z.object({ ownState: z.looseObject({ value: z.number(), openedAt: z.number().optional() }) });

/**
 * One agent's circuit breaker (cockatiel `ConsecutiveBreaker`, or `SamplingBreaker` when
 * `sampling` is set). Only errors marked with {@link markHealthFailure} count as failures. While open — and
 * while the one half-open probe runs — calls fail at once with kind `circuit-open`.
 */
export class AgentBreaker {
  readonly #policy: CircuitBreakerPolicy;
  /** The policy's failure counter; the closed fast path reports outcomes to it directly. */
  readonly #counter: ConsecutiveBreaker | SamplingBreaker;
  readonly #halfOpenAfterMs: number;
  readonly #listeners = new Set<BreakerListener>();
  #openedAt = 0;

  /** @param agentKey the origin, used as `agent` on the diagnostics channel events. */
  constructor(agentKey: string, options: CircuitBreakerOptions) {
    this.#halfOpenAfterMs = options.halfOpenAfterMs;
    this.#counter = options.sampling
      ? new SamplingBreaker({
          threshold: options.sampling.threshold,
          duration: options.sampling.durationMs,
          ...(options.sampling.minimumRps !== undefined ? { minimumRps: options.sampling.minimumRps } : {}),
        })
      : new ConsecutiveBreaker(options.consecutiveFailures);
    const restored = savedState.safeParse(options.initialState);
    this.#policy = circuitBreaker(handleWhen(isHealthFailure), {
      halfOpenAfter: options.halfOpenAfterMs,
      breaker: this.#counter,
      ...(restored.success ? { initialState: options.initialState } : {}),
    });
    if (restored.success) this.#openedAt = restored.data.ownState.openedAt ?? 0;
    this.#policy.onBreak(() => {
      this.#openedAt = Date.now();
      emitEvent(undefined, { type: 'breaker-open', agent: agentKey, retryAfterMs: this.#halfOpenAfterMs, at: Date.now() });
      for (const l of this.#listeners) l.open(this.#halfOpenAfterMs);
    });
    this.#policy.onHalfOpen(() => {
      emitEvent(undefined, { type: 'breaker-half-open', agent: agentKey, at: Date.now() });
      for (const l of this.#listeners) l.halfOpen();
    });
    this.#policy.onReset(() => {
      emitEvent(undefined, { type: 'breaker-close', agent: agentKey, at: Date.now() });
      for (const l of this.#listeners) l.close();
    });
  }

  /** Adds a transition listener; returns its remover. */
  listen(listener: BreakerListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The current state. `open` turns into `half-open` with the next call after `halfOpenAfterMs`. */
  get state(): BreakerState {
    switch (this.#policy.state) {
      case CircuitState.Open:
        return 'open';
      case CircuitState.HalfOpen:
        return 'half-open';
      case CircuitState.Isolated:
        return 'isolated';
      default:
        return 'closed';
    }
  }

  /** Milliseconds until a call may pass: 0 when closed or when the next call would be the probe. */
  retryAfterMs(): number {
    const state = this.#policy.state;
    if (state === CircuitState.Open) return Math.max(0, this.#openedAt + this.#halfOpenAfterMs - Date.now());
    if (state === CircuitState.HalfOpen) return this.#halfOpenAfterMs > 0 ? 1 : 0;
    return 0;
  }

  /** True when a call would be refused right now (open and not yet due for a probe, probe running, isolated). */
  isOpen(): boolean {
    const state = this.#policy.state;
    if (state === CircuitState.Open) return this.retryAfterMs() > 0;
    return state === CircuitState.HalfOpen || state === CircuitState.Isolated;
  }

  /** The state to persist and pass back as `circuitBreaker.initialState`. */
  toJSON(): unknown {
    return this.#policy.toJSON();
  }

  /**
   * Runs `fn` through the breaker. While closed, `fn` runs directly and only its outcome goes to
   * the breaker's counter (what cockatiel's closed state does, without its promise chain per call);
   * otherwise the call goes through cockatiel (open: refused; due: the one half-open probe).
   * @throws A2AClientError kind `circuit-open` (with `retryAfterMs`) without calling `fn` while open;
   * otherwise whatever `fn` throws.
   */
  execute<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#policy.state === CircuitState.Closed) {
      let outcome: Promise<T>;
      try {
        outcome = fn();
      } catch (error) {
        outcome = Promise.reject(error);
      }
      return this.#track(outcome);
    }
    return this.#throughPolicy(fn);
  }

  /**
   * Counts the outcome of a call started while closed, as cockatiel's closed
   * state does, without its promise chain on the way: a success resets (consecutive) or is sampled;
   * a health failure is counted and may open the breaker before the returned promise rejects; any
   * other error is not counted. A health failure that arrives after the breaker left `closed` is
   * counted without a transition (cockatiel would reopen a half-open breaker on it; here the probe
   * decides).
   */
  #track<T>(outcome: Promise<T>): Promise<T> {
    return outcome.then(
      (value) => {
        this.#counter.success(CircuitState.Closed);
        return value;
      },
      (error: unknown) => this.#closedFailure(error),
    );
  }

  async #closedFailure(error: unknown): Promise<never> {
    if (!isHealthFailure(error)) throw error;
    // Still closed: hand the failure to cockatiel, which counts it and opens exactly as if the call
    // had run through it (and rejects with `error`).
    if (this.#policy.state === CircuitState.Closed) await this.#policy.execute(() => Promise.reject(error));
    else this.#counter.failure(CircuitState.Closed);
    throw error;
  }

  async #throughPolicy<T>(fn: () => Promise<T>): Promise<T> {
    if (this.isOpen()) throw this.#openError();
    try {
      return await this.#policy.execute(fn);
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw this.#openError(error);
      throw error;
    }
  }

  /** The `circuit-open` error a refused call gets (with `retryAfterMs` = time to half-open). */
  openError(cause?: unknown): A2AClientError {
    return this.#openError(cause);
  }

  #openError(cause?: unknown): A2AClientError {
    const retryAfterMs = this.retryAfterMs();
    return new A2AClientError({
      kind: 'circuit-open',
      message: `The agent's circuit breaker is open; next probe in ${retryAfterMs} ms`,
      retryAfterMs,
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

const breakers = new Map<string, AgentBreaker>();

/**
 * The process-wide breaker of the agent at `agentKey` (its endpoint origin), created with
 * `options` on first use; later callers share it (the first options win).
 */
export function breakerFor(
  agentKey: string,
  options: CircuitBreakerOptions,
): AgentBreaker {
  let breaker = breakers.get(agentKey);
  if (!breaker) {
    breaker = new AgentBreaker(agentKey, options);
    breakers.set(agentKey, breaker);
  }
  return breaker;
}

/** True when the breaker of the agent at `origin` would refuse a call now (fanOut skips it). */
export function isCircuitOpen(origin: string): boolean {
  return breakers.get(origin)?.isOpen() ?? false;
}

/** The breaker state of the agent at `origin`, or `undefined` when it has none yet. */
export function circuitState(origin: string): BreakerState | undefined {
  return breakers.get(origin)?.state;
}

/** The persistable state of the breaker of `origin` (pass it back as `circuitBreaker.initialState`). */
export function exportCircuit(origin: string): unknown {
  return breakers.get(origin)?.toJSON();
}

/** Forgets the breaker of `origin` (or every breaker), e.g. between tests. */
export function resetCircuit(origin?: string): void {
  if (origin === undefined) breakers.clear();
  else breakers.delete(origin);
}
