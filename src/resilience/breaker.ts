import { A2AClientError } from '../errors/a2a-client-error.js';
import { emitEvent } from './events.js';
import type { CircuitBreakerOptions } from './options.js';
import type { BreakerSync } from './state-sync.js';
import { CountedIn, createFailureCounter, type FailureCounter } from './failure-counter.js';

/** Breaker state as callers see it. */
export type BreakerState = 'closed' | 'open' | 'half-open';

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

/**
 * One agent's circuit breaker: the one state model (closed → open → half-open → closed or open
 * again) lives here. When to open is the counting policy of {@link createFailureCounter} (consecutive
 * failures, or cockatiel's `SamplingBreaker` when `sampling` is set), told of every outcome of a call let through; only
 * errors marked with {@link markHealthFailure} count as failures. While open — and while the one
 * half-open probe runs — calls fail at once with kind `circuit-open`. A probe that fails with a
 * health failure opens the breaker again; any other outcome closes it.
 *
 * A shared store ({@link share}) makes it one breaker across processes: it is told of every counted
 * outcome and transition, may open ({@link trip}) or close ({@link closeFromFleet}) it from outside,
 * and decides which process runs the half-open probe.
 */
export class AgentBreaker {
  #state: BreakerState = 'closed';
  /** `Date.now()` when the breaker last opened. */
  #openedAt = 0;
  #sync: BreakerSync | undefined;
  readonly #counter: FailureCounter;
  readonly #agentKey: string;
  readonly #halfOpenAfterMs: number;
  readonly #listeners = new Set<BreakerListener>();

  /** @param agentKey the origin, used as `agent` on the diagnostics channel events. */
  constructor(agentKey: string, options: CircuitBreakerOptions) {
    this.#agentKey = agentKey;
    this.#halfOpenAfterMs = options.halfOpenAfterMs;
    this.#counter = createFailureCounter(options);
  }

  /** Adds a transition listener; returns its remover. */
  listen(listener: BreakerListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reports this breaker's outcomes and transitions to `sync`, which also gates the half-open probe. */
  share(sync: BreakerSync): void {
    this.#sync = sync;
  }

  /** `Date.now()` when the breaker last opened (0 if never): the generation of the open state. */
  get openedAt(): number {
    return this.#openedAt;
  }

  /**
   * The time to open with now: `Date.now()`, or just after the last opening this breaker knew when
   * that is later (another process's clock ahead of ours), so an opening is always newer than the
   * last one and never mistaken for a stale copy by the fleet.
   */
  nextOpening(): number {
    return Math.max(Date.now(), this.#openedAt + 1);
  }

  /**
   * Opens the breaker as of `openedAt` because another process's breaker opened: from closed, or
   * from an older open (the later opening wins). An opening no later than the last one this breaker
   * knew (opened here, or closed by the fleet) is stale and ignored; a probe running here is left to
   * decide. Not told back to the sync. Returns true when it changed anything.
   */
  trip(openedAt: number): boolean {
    if (this.#state === 'half-open' || openedAt <= this.#openedAt) return false;
    // Already open here: the later opening only moves the probe time (no second breaker-open event).
    if (this.#state === 'open') this.#openedAt = openedAt;
    else this.#open(openedAt, false);
    return true;
  }

  /**
   * Closes an open breaker because another process's probe of the opening `openedAt` (or a later
   * one) succeeded. A newer opening here, or a probe running here, is kept. Returns true when it closed.
   */
  closeFromFleet(openedAt: number): boolean {
    if (this.#state !== 'open' || this.#openedAt > openedAt) return false;
    // Remembered as the last opening known, so a late copy of it cannot open the breaker again.
    this.#openedAt = openedAt;
    this.#close(false);
    return true;
  }

  /** The current state. `open` lets the next call through as the half-open probe once `halfOpenAfterMs` passed. */
  get state(): BreakerState {
    return this.#state;
  }

  /**
   * Milliseconds until a call may pass: 0 when closed or when the next call would be the probe. With
   * a shared store, an open breaker past its `halfOpenAfterMs` waits while another process probes.
   */
  retryAfterMs(): number {
    if (this.#state === 'open') {
      const left = this.#openedAt + this.#halfOpenAfterMs - Date.now();
      if (left > 0) return left;
      return this.#sync ? this.#sync.probeWaitMs() : 0;
    }
    if (this.#state === 'half-open') return this.#halfOpenAfterMs > 0 ? 1 : 0;
    return 0;
  }

  /** True when a call would be refused right now (open and not yet due for a probe, or the probe running). */
  isOpen(): boolean {
    return this.#state === 'half-open' || (this.#state === 'open' && this.retryAfterMs() > 0);
  }

  /**
   * Runs `fn` through the breaker: while closed, directly (its outcome counted); when open and due,
   * as the one half-open probe.
   * With a shared store, a call that follows a health failure here waits until the fleet counted
   * that failure (`BreakerSync.reported`, at most the store's `timeoutMs`, or until `scope`'s signal
   * aborts: then `fn` runs and meets the scope's failure at once), then is decided.
   * @param countSuccess false for a stream's opening, whose success is known only later: while
   * closed, a success is then left to {@link recordLate} (a failure still counts at once).
   * @param scope the call's scope: its signal ends a wait for the fleet's count.
   * @throws A2AClientError kind `circuit-open` (with `retryAfterMs`) without calling `fn` while open
   * or while the probe runs; otherwise whatever `fn` throws.
   */
  execute<T>(fn: () => Promise<T>, countSuccess = true, scope?: { readonly signal: AbortSignal }): Promise<T> {
    if (this.#state !== 'closed') {
      if (this.isOpen()) return Promise.reject(this.openError());
      this.#halfOpen();
      return run(fn).then(
        (value) => {
          this.#close(true);
          return value;
        },
        (error: unknown) => {
          if (isHealthFailure(error)) {
            this.#counter.failure(CountedIn.HalfOpen);
            this.#open(this.nextOpening(), true);
          } else this.#close(true);
          throw error;
        },
      );
    }
    // This process's last health failure is not counted by the fleet yet: decide once it is.
    const reported = this.#sync?.reported?.();
    if (reported !== undefined && scope?.signal.aborted !== true) return untilCounted(reported, scope).then(() => this.execute(fn, countSuccess, scope));
    return run(fn).then(
      (value) => {
        if (this.#state === 'closed' && countSuccess) {
          this.#counter.success(CountedIn.Closed);
          this.#sync?.succeeded();
        }
        return value;
      },
      (error: unknown) => {
        // A call started while closed that fails after the breaker left `closed` changes nothing: the probe decides.
        if (isHealthFailure(error) && this.#state === 'closed') {
          this.#sync?.failed();
          if (this.#counter.failure(CountedIn.Closed)) this.#open(this.nextOpening(), true);
        }
        throw error;
      },
    );
  }

  /**
   * Counts an outcome known after the call that `execute` let through ended: a stream that brought
   * news (`healthFailure` false, a success) or failed later with a health failure (counted as a
   * failed attempt is). Only while closed: a probe's own outcome decides the other states.
   */
  recordLate(healthFailure: boolean): void {
    if (this.#state !== 'closed') return;
    if (!healthFailure) {
      this.#counter.success(CountedIn.Closed);
      this.#sync?.succeeded();
      return;
    }
    this.#sync?.failed();
    if (this.#counter.failure(CountedIn.Closed)) this.#open(this.nextOpening(), true);
  }

  /** The `circuit-open` error a refused call gets (with `retryAfterMs` = time to half-open). */
  openError(): A2AClientError {
    const retryAfterMs = this.retryAfterMs();
    return new A2AClientError({
      kind: 'circuit-open',
      message: `The agent's circuit breaker is open; next probe in ${retryAfterMs} ms`,
      retryAfterMs,
    });
  }

  /** Opens as of `openedAt`; `here`: this process decided it (told to the sync), not the fleet. */
  #open(openedAt: number, here: boolean): void {
    this.#state = 'open';
    this.#openedAt = openedAt;
    const at = Date.now();
    const retryAfterMs = here ? this.#halfOpenAfterMs : Math.max(0, openedAt + this.#halfOpenAfterMs - at);
    emitEvent(undefined, { type: 'breaker-open', agent: this.#agentKey, retryAfterMs, at });
    for (const l of this.#listeners) l.open(retryAfterMs);
    if (here) this.#sync?.opened(openedAt);
  }

  #halfOpen(): void {
    this.#state = 'half-open';
    this.#sync?.probing();
    emitEvent(undefined, { type: 'breaker-half-open', agent: this.#agentKey, at: Date.now() });
    for (const l of this.#listeners) l.halfOpen();
  }

  /** Closes; `here`: this process's probe succeeded (told to the sync), not another's. */
  #close(here: boolean): void {
    this.#counter.success(CountedIn.HalfOpen);
    this.#state = 'closed';
    emitEvent(undefined, { type: 'breaker-close', agent: this.#agentKey, at: Date.now() });
    for (const l of this.#listeners) l.close();
    if (here) this.#sync?.closed();
  }
}

/** `fn()` as a promise, a synchronous throw included. */
function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Resolves when `reported` does, or at once when `scope`'s signal aborts (the held call then fails as the scope says). */
function untilCounted(reported: Promise<void>, scope: { readonly signal: AbortSignal } | undefined): Promise<void> {
  if (scope === undefined) return reported;
  const signal = scope.signal;
  return new Promise<void>((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void reported.then(done);
  });
}
