import { isA2AClientError, type A2AClientError } from '../errors/a2a-client-error.js';
import type { A2AErrorKind, FailurePhase } from '../errors/kinds.js';
import { ignoreLate } from '../util/ignore-late.js';
import { abortedError, deadlineError, phaseOf, requestAbortedError, requestDeadlineError, timeoutError, type PhaseTimerKind } from './scope-errors.js';
import { PhaseTimer } from './phase-timer.js';
import { cancel, schedule, type Due } from './timer-heap.js';

/** What a `CallScope` watches: an enclosing scope, or a deadline and a signal of its own. */
export interface CallScopeInit {
  /** The enclosing scope: its deadline is taken and its failure fails this one (no timer or listener of its own; `deadline` and `signal` ignored). */
  parent?: CallScope | undefined;
  /** Absolute deadline in `performance.now()` ms; reaching it fails the scope with `deadline-exceeded`. Absent: none. */
  deadline?: number | undefined;
  /** The caller's signal; its abort fails the scope with `aborted` (a typed reason, an outer scope's, is kept). */
  signal?: AbortSignal | undefined;
  /** A scope over one HTTP request: it can arm phase timers, and its errors say how far the request got (`phase`, from `CallScope.sent`). */
  request?: boolean | undefined;
  /** Told once, synchronously, when the scope fails after construction (not for a failure found by the constructor). */
  onFail?: ((error: A2AClientError) => void) | undefined;
  /** The setting `deadline` came from, named in its `deadline-exceeded` (see `deadline-name.ts`); a child takes its parent's. */
  deadlineName?: string | undefined;
}

/**
 * The one owner of "the time left and the caller's signal": every layer that must stop when a call's
 * deadline passes or its caller aborts asks a scope — the pipeline for a whole call (every attempt
 * and backoff), a resumed stream for all its rounds, an engine for one request (with its connect /
 * read / idle phase timer). When the scope fails (first cause wins) it records an
 * {@link A2AClientError}, tells `onFail`, aborts {@link signal} (created only when read: an
 * `AbortSignal` costs ~1.5 µs) and rejects every pending {@link race} and {@link sleep}.
 *
 * Timers go into the process-wide timer heap (one Node timer for all scopes). A phase timer moves
 * lazily: {@link touch} per stream event only records the time, and a firing re-checks the clock, so
 * it is never early and costs no timer operation per event. Call {@link dispose} on every exit path.
 */
export class CallScope {
  /** Absolute deadline in `performance.now()` ms (`Infinity`: none). */
  readonly deadline: number;
  /** The setting the deadline came from (e.g. `fanOut totalMs`), when the caller of the scope said. */
  readonly deadlineName: string | undefined;
  /** A request scope: true once the request got a socket and was (being) written; later failures are `after-send`. */
  sent = false;
  readonly #request: boolean;
  readonly #parent: CallScope | undefined;
  /** Scopes opened inside this one ({@link CallScopeInit.parent}), failed with it. */
  #children: Set<CallScope> | undefined;
  readonly #callerSignal: AbortSignal | undefined;
  #onCallerAbort: (() => void) | undefined;
  #onFail: ((error: A2AClientError) => void) | undefined;
  #controller: AbortController | undefined;
  #failure: A2AClientError | undefined;
  /** The error a request scope open inside this one got when this one failed (see {@link requestFailure}). */
  #requestFailure: A2AClientError | undefined;
  #deadlineDue: Due | undefined;
  /** Rejecter of the {@link race} in flight (one, nearly always), then a set for more. */
  #racer: ((error: A2AClientError) => void) | undefined;
  #racers: Set<(error: A2AClientError) => void> | undefined;
  /** The request's phase timer, made when first armed. */
  #phaseTimer: PhaseTimer | undefined;
  #disposed = false;
  /** When a request's scope opened (`performance.now()`), for its deadline message. */
  #openedAt = 0;

  /** Starts watching; fails at once (see {@link failure}) when the signal already fired or the deadline passed. */
  constructor(init: CallScopeInit = {}) {
    this.#request = init.request === true;
    if (this.#request) this.#openedAt = performance.now();
    const parent = init.parent;
    this.#parent = parent;
    if (parent) {
      this.deadline = parent.deadline;
      this.deadlineName = parent.deadlineName;
      if (parent.#failure) this.#fail(this.#fromParent(parent.#failure));
      else {
        (parent.#children ??= new Set()).add(this);
        this.#onFail = init.onFail;
      }
      return;
    }
    this.deadline = init.deadline ?? Number.POSITIVE_INFINITY;
    this.deadlineName = init.deadlineName;
    const callerSignal = init.signal;
    this.#callerSignal = callerSignal;
    if (callerSignal?.aborted) {
      this.#fail(this.#abortError());
      return;
    }
    const now = performance.now();
    if (this.deadline <= now) {
      this.#fail(this.#deadlineError());
      return;
    }
    if (callerSignal) {
      const onAbort = (): void => this.#fail(this.#abortError());
      this.#onCallerAbort = onAbort;
      callerSignal.addEventListener('abort', onAbort, { once: true });
    }
    if (this.deadline !== Number.POSITIVE_INFINITY) {
      this.#deadlineDue = { deadline: this.deadline, slot: -1, expire: () => this.#fail(this.#deadlineError()) };
      schedule(this.#deadlineDue, now);
    }
    this.#onFail = init.onFail;
  }

  /** Aborts with the scope's failure (an `A2AClientError`) as its `reason`. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#failure) this.#controller.abort(this.#failure);
    }
    return this.#controller.signal;
  }

  /** Why the scope failed (`aborted`, `deadline-exceeded`, a phase timeout or what {@link fail} was given); `undefined` while it has not. */
  get failure(): A2AClientError | undefined {
    return this.#failure;
  }

  /**
   * The own error (its `phase`: sent or not) of the request this scope's failure cut, opened inside
   * it or inside its parent (a stream's requests open beside its pipeline's scope).
   */
  get requestFailure(): A2AClientError | undefined {
    if (this.#failure === undefined) return undefined;
    return this.#requestFailure ?? this.#parent?.requestFailure;
  }

  /** True once the scope failed (without creating the signal). */
  get aborted(): boolean {
    return this.#failure !== undefined;
  }

  /** Milliseconds left before the deadline (never negative; `Infinity` without one). */
  timeLeft(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  /** Replaces the phase timer with one of `kind` that fires after `ms` (non-finite or ≤ 0: no timer). */
  arm(kind: PhaseTimerKind, ms: number): void {
    if (this.#failure !== undefined || this.#disposed || !Number.isFinite(ms) || ms <= 0) {
      this.disarm();
      return;
    }
    (this.#phaseTimer ??= new PhaseTimer(this.#onPhaseDue)).arm(kind, ms);
  }

  /** Restarts the current phase timer from now (a chunk or an event arrived). No timer operation. */
  touch(): void {
    this.#phaseTimer?.touch();
  }

  /** Clears the phase timer (the deadline and the caller's signal stay watched). */
  disarm(): void {
    this.#phaseTimer?.disarm();
  }

  /** Fails the scope with `error` (the first failure wins). */
  fail(error: A2AClientError): void {
    this.#fail(error);
  }

  /**
   * Settles with `promise`, or rejects with the scope's failure as soon as it fails; a late outcome
   * of `promise` is then dropped (observed, never unhandled).
   * @param inspect sees the rejection (`promise`'s error or the failure) just before the returned promise rejects.
   * @throws the scope's failure, or `promise`'s error.
   */
  race<T>(promise: Promise<T>, inspect?: (error: unknown) => void): Promise<T> {
    const failure = this.#failure;
    if (failure) {
      promise.then(undefined, ignoreLate);
      inspect?.(failure);
      return Promise.reject(failure);
    }
    // One small promise per race, released when it settles (racing against one long-lived promise
    // would pile a reaction per race onto it, keeping every result alive).
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const cut = (error: unknown): void => {
        if (settled) return;
        settled = true;
        this.#leave(cut);
        inspect?.(error);
        reject(error);
      };
      this.#join(cut);
      promise.then((value) => {
        if (settled) return;
        settled = true;
        this.#leave(cut);
        resolve(value);
      }, cut);
    });
  }

  /**
   * Waits `ms`, or less when the scope fails first.
   * @throws the scope's failure.
   */
  sleep(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
    });
    return this.race(waited).finally(() => clearTimeout(timer));
  }

  /** Clears every timer and the listener on the caller's signal. Idempotent. */
  dispose(): void {
    this.#disposed = true;
    this.disarm();
    if (this.#deadlineDue) cancel(this.#deadlineDue);
    this.#deadlineDue = undefined;
    if (this.#onCallerAbort) this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#onCallerAbort = undefined;
    if (this.#parent) this.#parent.#children?.delete(this);
  }

  #fail(error: A2AClientError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    const onFail = this.#onFail;
    this.#onFail = undefined;
    this.dispose();
    onFail?.(error);
    // Listeners on the signal (an attempt's) run before the races are cut.
    this.#controller?.abort(error);
    const racer = this.#racer;
    const racers = this.#racers;
    this.#racer = undefined;
    this.#racers = undefined;
    racer?.(error);
    if (racers) for (const cut of racers) cut(error);
    const children = this.#children;
    this.#children = undefined;
    if (children) {
      for (const child of children) {
        child.#fail(child.#fromParent(error));
        const cut = child.#request ? child.#failure : child.#requestFailure;
        if (cut !== undefined) this.#requestFailure = cut;
      }
    }
  }

  /** This scope's failure when its parent failed with `error`: a request says how far it got. */
  #fromParent(error: A2AClientError): A2AClientError {
    if (!this.#request) return error;
    if (error.kind === 'deadline-exceeded') return this.#deadlineError();
    // The caller's own reason stays the cause, as for a request watching the caller's signal itself.
    return requestAbortedError(error.kind === 'aborted' && error.cause !== undefined ? error.cause : error, this.#phase('aborted'));
  }

  #join(cut: (error: A2AClientError) => void): void {
    if (this.#racer === undefined) this.#racer = cut;
    else (this.#racers ??= new Set()).add(cut);
  }

  #leave(cut: (error: A2AClientError) => void): void {
    if (this.#racer === cut) this.#racer = undefined;
    else this.#racers?.delete(cut);
  }

  readonly #onPhaseDue = (kind: PhaseTimerKind, ms: number): void => {
    if (this.#failure === undefined && !this.#disposed) this.#fail(timeoutError(kind, ms, this.#phase(kind)));
  };

  #phase(kind: A2AErrorKind): FailurePhase | undefined {
    return this.#request ? phaseOf(kind, this.sent) : undefined;
  }

  #deadlineError(): A2AClientError {
    return this.#request
      ? requestDeadlineError(performance.now() - this.#openedAt, this.#phase('deadline-exceeded'), this.deadlineName)
      : deadlineError(undefined, this.deadlineName);
  }

  #abortError(): A2AClientError {
    const reason: unknown = this.#callerSignal?.reason;
    if (!this.#request) return isA2AClientError(reason) ? reason : abortedError(reason);
    return requestAbortedError(reason, this.#phase('aborted'));
  }
}
