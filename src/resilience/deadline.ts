import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { cancel, schedule, type Due } from './deadline-timer.js';

/** The signal an attempt runs under: fires on the caller's abort or at the deadline. */
export interface CallScope {
  /** Aborts with an `A2AClientError` (`aborted` or `deadline-exceeded`) as its `reason`. */
  readonly signal: AbortSignal;
  /** Milliseconds left before the deadline (never negative). */
  timeLeft(): number;
  /** Clears the deadline timer and the listener on the caller's signal. Idempotent. */
  dispose(): void;
}

/**
 * Opens a scope over one call: a signal that fires when `callerSignal` aborts or when
 * `performance.now()` reaches `deadline`, whichever is first. Call `dispose()` when the call ends.
 */
export function openScope(deadline: number, callerSignal?: AbortSignal): CallScope {
  return new DeadlineScope(deadline, callerSignal);
}

/**
 * The {@link CallScope} of {@link openScope}, with what the pipeline needs to stay cheap per call:
 * its `AbortSignal` is only created when first read (creating one costs ~1.5 µs on Node 20), the
 * deadline goes into the process-wide deadline heap (one Node timer for all calls) rather than a
 * `setTimeout` of its own, and {@link DeadlineScope.race} cuts a promise without listeners on the
 * signal.
 */
export class DeadlineScope implements CallScope {
  readonly #deadline: number;
  readonly #callerSignal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #reason: A2AClientError | undefined;
  #due: Due | undefined;
  #onCallerAbort: (() => void) | undefined;
  /** Rejects the promise {@link DeadlineScope.race} is running, if any. */
  #cut: ((reason: A2AClientError) => void) | undefined;

  constructor(deadline: number, callerSignal?: AbortSignal) {
    this.#deadline = deadline;
    this.#callerSignal = callerSignal;
    if (callerSignal?.aborted) {
      this.#reason = callerReason(callerSignal);
      return;
    }
    const now = performance.now();
    const left = deadline - now;
    if (left <= 0) {
      this.#reason = deadlineError();
      return;
    }
    if (callerSignal) {
      const onAbort = (): void => this.#fire(callerReason(callerSignal));
      this.#onCallerAbort = onAbort;
      callerSignal.addEventListener('abort', onAbort, { once: true });
    }
    if (Number.isFinite(left)) {
      this.#due = { deadline, slot: -1, expire: () => this.#fire(deadlineError()) };
      schedule(this.#due, now);
    }
  }

  /** Aborts with an `A2AClientError` (`aborted` or `deadline-exceeded`) as its `reason`. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** True once the caller aborted or the deadline passed (without creating the signal). */
  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  /** Why the scope fired: `aborted` or `deadline-exceeded`; `undefined` while it has not. */
  get reason(): A2AClientError | undefined {
    return this.#reason;
  }

  /** Milliseconds left before the deadline (never negative). */
  timeLeft(): number {
    return Math.max(0, this.#deadline - performance.now());
  }

  /** Clears the deadline timer and the listener on the caller's signal. Idempotent. */
  dispose(): void {
    if (this.#due) cancel(this.#due);
    this.#due = undefined;
    if (this.#onCallerAbort) this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#onCallerAbort = undefined;
  }

  /**
   * Like {@link raceSignal} over this scope's signal: settles with `promise`, or rejects with the
   * scope's reason as soon as it fires (a late rejection of `promise` is then observed). One race
   * at a time per scope.
   * @param inspect sees the rejection (`promise`'s error or the scope's reason) just before the
   * returned promise rejects with it.
   */
  race<T>(promise: Promise<T>, inspect?: (error: unknown) => void): Promise<T> {
    const reason = this.#reason;
    if (reason) {
      void promise.catch(ignoreLate);
      inspect?.(reason);
      return Promise.reject(reason);
    }
    return new Promise<T>((resolve, reject) => {
      // Settled once: a late outcome of `promise` after the scope fired is dropped (not inspected).
      let settled = false;
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        this.#cut = undefined;
        inspect?.(error);
        reject(error);
      };
      this.#cut = fail;
      promise.then((value) => {
        if (settled) return;
        settled = true;
        this.#cut = undefined;
        resolve(value);
      }, fail);
    });
  }

  #fire(reason: A2AClientError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.dispose();
    // Listeners on the signal (the attempt's) run first, as they would before a raceSignal listener.
    this.#controller?.abort(reason);
    const cut = this.#cut;
    this.#cut = undefined;
    cut?.(reason);
  }
}

/** The scope's reason for a caller's abort: a reason that is already a typed error (an outer scope's) is kept. */
function callerReason(callerSignal: AbortSignal): A2AClientError {
  const reason: unknown = callerSignal.reason;
  return isA2AClientError(reason) ? reason : abortedError(reason);
}

/** The `aborted` error for a caller's signal reason. */
export function abortedError(reason: unknown): A2AClientError {
  return new A2AClientError({ kind: 'aborted', message: 'The call was aborted by the caller', cause: reason });
}

/** The `deadline-exceeded` error (with the last attempt's error as `cause`, when there was one). */
export function deadlineError(cause?: unknown): A2AClientError {
  return new A2AClientError({ kind: 'deadline-exceeded', message: 'The call deadline (timeouts.totalMs) ran out', cause });
}

/**
 * Waits `ms`, or less when `signal` fires: then rejects with the signal's reason. The timer and the
 * listener are removed either way.
 * @throws the signal's reason (an `A2AClientError` for a {@link CallScope} signal).
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** An attempt that settles after its call ended has nobody to report to; its outcome is dropped on purpose. */
export function ignoreLate(): void {
  return undefined;
}

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it fires (a late rejection
 * of `promise` is then observed, never unhandled).
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    void promise.catch(ignoreLate);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    // `promise.then(…, …)` below observes a late rejection once the signal has won.
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
