import type { PhaseTimerKind } from './scope-errors.js';
import { cancel, schedule, type Due } from './timer-heap.js';

/** A timer is treated as due this close to its time (Node may run one slightly early). */
const EARLY_MS = 0.05;

/**
 * One request's phase timer (`connect-timeout`, `read-timeout`, `idle-timeout`), in the process-wide
 * timer heap. It moves lazily: {@link touch} per stream event only records the time, and a firing
 * re-checks the clock, so it is never early and costs no timer operation per event.
 */
export class PhaseTimer {
  readonly #expire: (kind: PhaseTimerKind, ms: number) => void;
  #kind: PhaseTimerKind | undefined;
  #ms = 0;
  #at = Number.POSITIVE_INFINITY;
  #due: Due | undefined;

  /** @param expire told when the armed phase ran `ms` without a {@link touch}. */
  constructor(expire: (kind: PhaseTimerKind, ms: number) => void) {
    this.#expire = expire;
  }

  /** Replaces the timer with one of `kind` that fires after `ms` (finite, > 0). */
  arm(kind: PhaseTimerKind, ms: number): void {
    this.#kind = kind;
    this.#ms = ms;
    const now = performance.now();
    this.#at = now + ms;
    // A later time than the one in the heap is re-checked when that one fires; an earlier one is not.
    if (this.#due === undefined || this.#due.deadline > this.#at) this.#schedule(now);
  }

  /** Restarts the current phase from now. No timer operation. */
  touch(): void {
    if (this.#kind !== undefined) this.#at = performance.now() + this.#ms;
  }

  /** Clears the timer. */
  disarm(): void {
    this.#kind = undefined;
    this.#at = Number.POSITIVE_INFINITY;
    if (this.#due) cancel(this.#due);
    this.#due = undefined;
  }

  #schedule(now: number): void {
    if (this.#due) cancel(this.#due);
    this.#due = { deadline: this.#at, slot: -1, expire: this.#onDue };
    schedule(this.#due, now);
  }

  readonly #onDue = (): void => {
    this.#due = undefined;
    const kind = this.#kind;
    if (kind === undefined) return;
    const now = performance.now();
    if (now >= this.#at - EARLY_MS) this.#expire(kind, this.#ms);
    // Touched since it was scheduled: wait for what is left.
    else this.#schedule(now);
  };
}
