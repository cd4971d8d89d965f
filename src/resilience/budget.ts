import type { RetryBudgetOptions } from './options.js';
import type { BudgetSync } from './state-sync.js';

/** Buckets per window: the window is counted in steps of `windowMs / 20` (5 %). */
const BUCKETS_PER_WINDOW = 20;
/** Upper bound on buckets, reached only when a later call asks for a much longer window than the first. */
const MAX_BUCKETS = 4096;

/**
 * A per-agent retry budget: retries may be at most `ratio` × the requests of the last `windowMs`,
 * plus `minPerSecond` × the window in seconds. Shared by every client of the same agent.
 *
 * Requests and retries are counted in fixed time buckets (a ring of counters, `windowMs / 20` wide,
 * sized by the first window the budget sees), so recording is O(1) and memory stays bounded however
 * many calls a long-running process makes. The window is therefore quantised: a bucket counts while
 * any part of it lies in the window, so an event may be counted up to one bucket width (5 % of the
 * window) longer than `windowMs`.
 *
 * Shared through a store ({@link share}), the fleet decides: the store counts this process's requests
 * and retries towards the fleet's and gives its verdict from its last view of the fleet; the local
 * counts decide only while it has no fresh view (not connected yet, or degraded).
 */
export class RetryBudget {
  #sync: BudgetSync | undefined;
  /** Bucket width in ms; 0 until the first call fixes it. */
  #width = 0;
  #requests: number[] = [];
  #retries: number[] = [];
  /** Ring index of the newest bucket. */
  #head = 0;
  /** Bucket number (`floor(now / width)`) of the newest bucket. */
  #headKey = Number.NEGATIVE_INFINITY;

  /** Counts this budget towards a fleet's through `sync`, which then decides (see the class doc). */
  share(sync: BudgetSync): void {
    this.#sync = sync;
  }

  /** Records the first attempt of a call. O(1). */
  recordRequest(windowMs = 60_000, now: number = performance.now()): void {
    const index = this.#slot(windowMs, now);
    if (index >= 0) this.#requests[index] = (this.#requests[index] ?? 0) + 1;
    this.#sync?.requested(windowMs);
  }

  /**
   * Takes one retry from the budget when there is room (and records it); false when spent.
   */
  tryRetry(options: RetryBudgetOptions, now: number = performance.now()): boolean {
    const index = this.#slot(options.windowMs, now);
    const fleet = this.#sync?.allows(options);
    if (fleet === false) return false;
    if (fleet === undefined) {
      const from = Math.floor((now - options.windowMs) / this.#width);
      const requests = this.#sum(this.#requests, from);
      const allowed = options.ratio * requests + options.minPerSecond * (options.windowMs / 1000);
      if (this.#sum(this.#retries, from) + 1 > allowed) return false;
    }
    if (index >= 0) this.#retries[index] = (this.#retries[index] ?? 0) + 1;
    this.#sync?.retried();
    return true;
  }

  /**
   * Moves the ring forward to `now` (emptying the buckets that fell out) and returns the ring index of
   * the bucket of `now`, or -1 when `now` is older than the ring.
   */
  #slot(windowMs: number, now: number): number {
    if (this.#width === 0) {
      const width = windowMs / BUCKETS_PER_WINDOW;
      this.#width = width >= 1 ? width : 1;
    }
    this.#fit(windowMs);
    const size = this.#requests.length;
    const key = Math.floor(now / this.#width);
    const behind = this.#headKey - key;
    if (behind < 0) {
      // After a pause longer than the ring, every bucket is stale: clear each once, not once per step.
      const steps = Math.min(-behind, size);
      for (let i = 0; i < steps; i++) {
        this.#head = (this.#head + 1) % size;
        this.#requests[this.#head] = 0;
        this.#retries[this.#head] = 0;
      }
      this.#headKey = key;
      return this.#head;
    }
    return behind < size ? (this.#head - behind + size) % size : -1;
  }

  /** Grows the ring (keeping its order) so it covers `windowMs` plus the partly covered oldest bucket. */
  #fit(windowMs: number): void {
    const size = this.#requests.length;
    const needed = Math.min(MAX_BUCKETS, Math.ceil(windowMs / this.#width) + 1);
    if (!(needed > size)) return;
    const requests = new Array<number>(needed).fill(0);
    const retries = new Array<number>(needed).fill(0);
    // Oldest first: bucket `head - i` of the old ring goes to `size - 1 - i` of the new one.
    for (let i = 0; i < size; i++) {
      const from = (this.#head - i + size) % size;
      requests[size - 1 - i] = this.#requests[from] ?? 0;
      retries[size - 1 - i] = this.#retries[from] ?? 0;
    }
    this.#requests = requests;
    this.#retries = retries;
    this.#head = Math.max(0, size - 1);
  }

  /** Sum of the buckets numbered `from` up to the newest one (those still in the ring). */
  #sum(counts: readonly number[], from: number): number {
    const size = counts.length;
    const n = Math.min(size, this.#headKey - from + 1);
    let total = 0;
    for (let i = 0; i < n; i++) total += counts[(this.#head - i + size) % size] ?? 0;
    return total;
  }
}
