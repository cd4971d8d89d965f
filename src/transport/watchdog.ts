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
}

const NOOP = (): void => undefined;

/**
 * `setTimeout` that never fires early: Node may run a timer up to ~1 ms before its time (it rounds to
 * whole milliseconds of loop time); if so, wait the remainder. `onTimer` receives the new handle.
 */
function preciseTimeout(ms: number, fire: () => void, onTimer: (t: ReturnType<typeof setTimeout>) => void): ReturnType<typeof setTimeout> {
  const due = performance.now() + ms;
  const tick = (): void => {
    const left = due - performance.now();
    if (left > 0.05) onTimer(setTimeout(tick, left));
    else fire();
  };
  return setTimeout(tick, ms);
}

/**
 * The one place that watches a request: one phase timer (connect → read → idle), the overall deadline
 * and the caller's signal. When any of them fires it records an {@link A2AClientError} of the right kind,
 * aborts {@link signal} (handed to the HTTP stack) and rejects {@link race}. {@link dispose} clears every
 * timer and listener; call it on every exit path.
 */
export class Watchdog {
  readonly #controller = new AbortController();
  readonly #failed: Promise<never>;
  #reject: (error: A2AClientError) => void = NOOP;
  #phaseTimer: ReturnType<typeof setTimeout> | undefined;
  #deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort = (): void => this.#onAbort();
  #failure: A2AClientError | undefined;
  #disposed = false;
  /** True once the request got a socket and was (being) written: later failures are `after-send`. */
  sent = false;

  /** Starts watching; fails at once (see {@link failure}) if the signal already fired or the deadline passed. */
  constructor(init: WatchdogInit) {
    this.#failed = new Promise<never>((_resolve, reject) => {
      this.#reject = reject;
    });
    // The rejection is observed through race(); this handler only keeps it from being reported as unhandled.
    this.#failed.catch(NOOP);
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
        return;
      }
      this.#deadlineTimer = preciseTimeout(left, () => this.fail(this.#timeoutError('deadline-exceeded', left)), (t) => {
        this.#deadlineTimer = t;
      });
    }
  }

  /** The signal to hand to the HTTP stack; it aborts with the recorded failure. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The failure recorded by a timer, the deadline or the caller's abort, if any. */
  get failure(): A2AClientError | undefined {
    return this.#failure;
  }

  /** Replaces the phase timer with one of `kind` that fires after `ms` (non-finite or ≤ 0: no timer). */
  arm(kind: PhaseTimerKind, ms: number): void {
    this.disarm();
    if (this.#failure !== undefined || this.#disposed || !Number.isFinite(ms) || ms <= 0) return;
    this.#phaseTimer = preciseTimeout(ms, () => this.fail(this.#timeoutError(kind, ms)), (t) => {
      this.#phaseTimer = t;
    });
  }

  /** Clears the phase timer (the deadline and the caller's signal stay watched). */
  disarm(): void {
    if (this.#phaseTimer !== undefined) clearTimeout(this.#phaseTimer);
    this.#phaseTimer = undefined;
  }

  /** Records `error` (first one wins), aborts {@link signal} and rejects pending {@link race} calls. */
  fail(error: A2AClientError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#clearTimers();
    this.#reject(error);
    this.#controller.abort(error);
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
    return Promise.race([promise, this.#failed]);
  }

  /** Clears every timer and the listener on the caller's signal. Safe to call more than once. */
  dispose(): void {
    this.#disposed = true;
    this.#clearTimers();
    this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
  }

  #clearTimers(): void {
    this.disarm();
    if (this.#deadlineTimer !== undefined) clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }

  #phase(kind: A2AErrorKind): FailurePhase {
    if (kind === 'connect-timeout') return 'before-send';
    if (kind === 'read-timeout' || kind === 'idle-timeout') return 'after-send';
    return this.sent ? 'after-send' : 'before-send';
  }

  #timeoutError(kind: A2AErrorKind, ms: number): A2AClientError {
    const what: Record<string, string> = {
      'connect-timeout': 'opening the connection',
      'read-timeout': 'waiting for the response',
      'idle-timeout': 'waiting for the next stream event',
      'deadline-exceeded': 'the call deadline',
    };
    return new A2AClientError({
      kind,
      message: `Timed out after ${Math.round(ms)} ms (${what[kind] ?? kind})`,
      phase: this.#phase(kind),
    });
  }

  #onAbort(): void {
    const reason: unknown = this.#callerSignal?.reason;
    this.fail(new A2AClientError({ kind: 'aborted', message: 'The request was aborted by the caller', cause: reason, phase: this.#phase('aborted') }));
    this.dispose();
  }
}
