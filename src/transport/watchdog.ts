import { A2AClientError } from '../errors/a2a-client-error.js';
import type { A2AErrorKind, FailurePhase } from '../errors/kinds.js';

/** The timer kinds a {@link Watchdog} can arm for the current phase of a request. */
export type PhaseTimerKind = 'connect-timeout' | 'read-timeout' | 'idle-timeout';

/** What a {@link Watchdog} needs from the request. */
export interface WatchdogInit {
  /** The caller's signal; firing it ends the request with kind `aborted` (its `reason` is the `cause`). */
  signal?: AbortSignal | undefined;
  /** Absolute deadline in `performance.now()` milliseconds; reaching it gives `deadline-exceeded`. */
  deadline?: number | undefined;
  /**
   * Told once, synchronously, when the watchdog fires (a timer, the deadline or the caller's abort)
   * after construction; a failure found by the constructor itself is only recorded in `failure`.
   */
  onFail?: ((error: A2AClientError) => void) | undefined;
}

const NOOP = (): void => undefined;

/** A timer is treated as due this close to its time (Node may run one slightly early). */
const EARLY_MS = 0.05;

const WHAT: Readonly<Record<string, string>> = {
  'connect-timeout': 'opening the connection',
  'read-timeout': 'waiting for the response',
  'idle-timeout': 'waiting for the next stream event',
  'deadline-exceeded': 'the call deadline',
};

/**
 * The one place that watches a request: one phase timer (connect → read → idle), the overall deadline
 * and the caller's signal. When any of them fires it records an {@link A2AClientError} of the right
 * kind, tells `onFail`, aborts {@link signal} (if anyone asked for it) and rejects {@link race}.
 * {@link dispose} clears every timer and listener; call it on every exit path.
 *
 * One Node timer serves both the phase and the deadline, and it is moved lazily: re-arming or
 * {@link touch}ing a later phase leaves it where it is, and when it fires early it re-schedules itself
 * for what is left. A stream that touches its idle timer per event thus costs no timer operation per
 * event, and a firing is never early (it is re-checked against `performance.now()`).
 */
export class Watchdog {
  #controller: AbortController | undefined;
  /** Rejecters of the {@link race} calls in flight. */
  readonly #racers = new Set<(error: A2AClientError) => void>();
  #onFail: ((error: A2AClientError) => void) | undefined;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort = (): void => this.#onAbort();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDue = Number.POSITIVE_INFINITY;
  #phaseKind: PhaseTimerKind | undefined;
  #phaseMs = 0;
  #phaseDue = Number.POSITIVE_INFINITY;
  #deadline = Number.POSITIVE_INFINITY;
  #deadlineMs = 0;
  #failure: A2AClientError | undefined;
  #disposed = false;
  /** True once the request got a socket and was (being) written: later failures are `after-send`. */
  sent = false;

  /** Starts watching; fails at once (see {@link failure}) if the signal already fired or the deadline passed. */
  constructor(init: WatchdogInit) {
    this.#callerSignal = init.signal;
    if (init.signal?.aborted) {
      this.#onAbort();
      return;
    }
    init.signal?.addEventListener('abort', this.#onCallerAbort, { once: true });
    if (init.deadline !== undefined) {
      const left = init.deadline - performance.now();
      if (left <= 0) {
        this.fail(this.#timeoutError('deadline-exceeded', 0));
        this.dispose();
        return;
      }
      this.#deadline = init.deadline;
      this.#deadlineMs = left;
      this.#schedule();
    }
    this.#onFail = init.onFail;
  }

  /** A signal that aborts with the recorded failure (created on first use, for stacks that take one). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#failure !== undefined) this.#controller.abort(this.#failure);
    }
    return this.#controller.signal;
  }

  /** The failure recorded by a timer, the deadline or the caller's abort, if any. */
  get failure(): A2AClientError | undefined {
    return this.#failure;
  }

  /** Replaces the phase timer with one of `kind` that fires after `ms` (non-finite or ≤ 0: no timer). */
  arm(kind: PhaseTimerKind, ms: number): void {
    if (this.#failure !== undefined || this.#disposed || !Number.isFinite(ms) || ms <= 0) {
      this.disarm();
      return;
    }
    this.#phaseKind = kind;
    this.#phaseMs = ms;
    this.#phaseDue = performance.now() + ms;
    this.#schedule();
  }

  /** Restarts the current phase timer from now (a chunk or an event arrived). No timer operation. */
  touch(): void {
    if (this.#phaseKind !== undefined) this.#phaseDue = performance.now() + this.#phaseMs;
  }

  /** Clears the phase timer (the deadline and the caller's signal stay watched). */
  disarm(): void {
    this.#phaseKind = undefined;
    this.#phaseDue = Number.POSITIVE_INFINITY;
    if (this.#deadline === Number.POSITIVE_INFINITY) this.#clearTimer();
  }

  /** Records `error` (first one wins), tells `onFail`, aborts {@link signal} and rejects pending {@link race} calls. */
  fail(error: A2AClientError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#phaseKind = undefined;
    this.#clearTimer();
    this.#onFail?.(error);
    for (const reject of this.#racers) reject(error);
    this.#racers.clear();
    this.#controller?.abort(error);
  }

  /**
   * Waits for `promise`, but rejects with the recorded failure as soon as the watchdog fires.
   * @throws A2AClientError when a timer, the deadline or the caller's abort fires first.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#failure !== undefined) {
      promise.catch(NOOP);
      return Promise.reject(this.#failure);
    }
    // One small promise per call, released when it settles (racing against one long-lived promise
    // would pile a reaction per call onto it, keeping every result alive).
    return new Promise<T>((resolve, reject) => {
      this.#racers.add(reject);
      promise.then(
        (value) => {
          this.#racers.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.#racers.delete(reject);
          reject(error);
        },
      );
    });
  }

  /** Clears every timer and the listener on the caller's signal. Safe to call more than once. */
  dispose(): void {
    this.#disposed = true;
    this.#phaseKind = undefined;
    this.#clearTimer();
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }

  /** Makes sure the one timer fires no later than the earlier of the phase and the deadline. */
  #schedule(): void {
    const due = Math.min(this.#phaseDue, this.#deadline);
    if (due === Number.POSITIVE_INFINITY) return;
    if (this.#timer !== undefined) {
      if (this.#timerDue <= due) return;
      clearTimeout(this.#timer);
    }
    this.#timerDue = due;
    // Whole milliseconds, so timers of one duration share one Node timer list.
    this.#timer = setTimeout(this.#onTimer, Math.max(1, Math.ceil(due - performance.now())));
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    if (this.#failure !== undefined || this.#disposed) return;
    const now = performance.now();
    if (now >= this.#deadline - EARLY_MS) this.fail(this.#timeoutError('deadline-exceeded', this.#deadlineMs));
    else if (this.#phaseKind !== undefined && now >= this.#phaseDue - EARLY_MS) this.fail(this.#timeoutError(this.#phaseKind, this.#phaseMs));
    else if (this.#phaseKind !== undefined || this.#deadline !== Number.POSITIVE_INFINITY) this.#schedule();
  };

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
  }

  #phase(kind: A2AErrorKind): FailurePhase {
    if (kind === 'connect-timeout') return 'before-send';
    if (kind === 'read-timeout' || kind === 'idle-timeout') return 'after-send';
    return this.sent ? 'after-send' : 'before-send';
  }

  #timeoutError(kind: A2AErrorKind, ms: number): A2AClientError {
    return new A2AClientError({
      kind,
      message: `Timed out after ${Math.round(ms)} ms (${WHAT[kind] ?? kind})`,
      phase: this.#phase(kind),
    });
  }

  #onAbort(): void {
    const reason: unknown = this.#callerSignal?.reason;
    this.fail(new A2AClientError({ kind: 'aborted', message: 'The request was aborted by the caller', cause: reason, phase: this.#phase('aborted') }));
    this.dispose();
  }
}
