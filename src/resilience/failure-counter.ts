import type { CircuitState as CockatielState, IBreaker } from 'cockatiel';
import type { CircuitBreakerOptions } from './options.js';
import { platform } from '../platform/current.js';

/** The breaker states an outcome is counted in, numbered as cockatiel's `CircuitState`. */
export const CountedIn = { Closed: 0, HalfOpen: 2 } as const;

/** A state an outcome is counted in (see {@link CountedIn}). */
export type CountedIn = (typeof CountedIn)[keyof typeof CountedIn];

/** Decides when a breaker opens: told of every counted outcome, `failure` answers "open now". */
export interface FailureCounter {
  success(state: CountedIn): void;
  /** Counts a failure; true when the breaker must open. */
  failure(state: CountedIn): boolean;
}

/**
 * Opens after `threshold` failures in a row; any success starts over (cockatiel's
 * `ConsecutiveBreaker` counts the same way; this one saves loading cockatiel for the default).
 */
class ConsecutiveCounter implements FailureCounter {
  #failures = 0;
  constructor(readonly threshold: number) {}
  success(): void {
    this.#failures = 0;
  }
  failure(): boolean {
    return ++this.#failures >= this.threshold;
  }
}

/**
 * The counting policy of `options`: consecutive failures (`consecutiveFailures`), or cockatiel's
 * `SamplingBreaker` when `sampling` is set — cockatiel is then loaded (synchronously, its CommonJS
 * build; the web build imports it), so importing a2a-resilient and the default breaker never pay for it (~30 ms on Node 20).
 */
export function createFailureCounter(options: CircuitBreakerOptions): FailureCounter {
  const sampling = options.sampling;
  if (!sampling) return new ConsecutiveCounter(options.consecutiveFailures);
  const { SamplingBreaker } = platform.cockatiel();
  const breaker: IBreaker = new SamplingBreaker({
    threshold: sampling.threshold,
    duration: sampling.durationMs,
    ...(sampling.minimumRps !== undefined ? { minimumRps: sampling.minimumRps } : {}),
  });
  // CountedIn holds cockatiel's CircuitState numbers for the two states outcomes are counted in.
  return {
    success: (state) => breaker.success(state as number as CockatielState),
    failure: (state) => breaker.failure(state as number as CockatielState),
  };
}
