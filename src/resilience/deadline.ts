import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';

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
  const controller = new AbortController();
  // A reason that is already a typed error (an outer scope's `aborted` / `deadline-exceeded`) is kept as is.
  const onAbort = (): void => {
    const reason: unknown = callerSignal?.reason;
    controller.abort(isA2AClientError(reason) ? reason : abortedError(reason));
  };
  let timer: NodeJS.Timeout | undefined;
  if (callerSignal?.aborted) onAbort();
  else {
    callerSignal?.addEventListener('abort', onAbort, { once: true });
    const left = deadline - performance.now();
    if (left <= 0) controller.abort(deadlineError());
    else if (Number.isFinite(left)) timer = setTimeout(() => controller.abort(deadlineError()), left);
  }
  return {
    signal: controller.signal,
    timeLeft: () => Math.max(0, deadline - performance.now()),
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
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
