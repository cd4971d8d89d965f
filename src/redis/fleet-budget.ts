import type { RetryBudgetOptions } from '../resilience/options.js';
import type { BudgetSync } from '../resilience/state-sync.js';
import { isReplyError } from './commands.js';
import type { FleetContext } from './fleet-context.js';
import { BUDGET_BUCKETS } from './keys.js';
import { parseCount } from './records.js';

/** What the fleet looked like at the last read. */
interface FleetView {
  /** `Date.now()` when it was read. */
  at: number;
  /** Requests and retries of the whole fleet over the window. */
  requests: number;
  retries: number;
  /** This process's requests among them. */
  mine: number;
}

/** The view before the first read of an agent (or after a long idle time): nothing counted. */
const EMPTY: Omit<FleetView, 'at'> = { requests: 0, retries: 0, mine: 0 };

/**
 * Requests each process is credited with before its own count says more (a pseudo-count): with little
 * traffic the headroom is split evenly between the processes, with much traffic by their requests.
 */
const SMOOTHING = 4;

/** Counts of one bucket not sent yet. */
interface Pending {
  bucket: number;
  requests: number;
  retries: number;
}

/**
 * One agent's retry budget counted across the fleet (a {@link BudgetSync}): one ratio and one floor
 * for every process using the store, not one per process.
 *
 * Requests and retries are counted here and added, once per sync round, to time-bucketed counters in
 * Redis (`<prefix>budget:<origin>:<windowMs>:<bucket>:q|r`, `windowMs / 10` wide, expiring after the
 * window); the same round reads the window's buckets back. A retry is decided here, at once, from that
 * view: the fleet's headroom (`ratio` × its requests + the floor − its retries) is split between the
 * processes — by their share of the requests, smoothed towards an even split among the live processes
 * when there are few — so processes deciding at the same moment from the same view do not each spend
 * all of it; requests made since the read add their own `ratio`, retries since the read count against
 * it. While the store is not synced (connecting, degraded), the local budget decides.
 */
export class FleetBudget implements BudgetSync {
  readonly #ctx: FleetContext;
  readonly #origin: string;
  #windowMs = 0;
  #width = 0;
  #pending: Pending = { bucket: -1, requests: 0, retries: 0 };
  /** Pending counts of earlier buckets, when a bucket ended between two rounds. */
  #older: Pending[] = [];
  /** Counted here but not in the view yet (pending or on their way). */
  #unseenRequests = 0;
  #unseenRetries = 0;
  /** This process's requests per bucket, as sent. */
  readonly #mine = new Map<number, number>();
  #view: FleetView | undefined;
  #lastActive = 0;

  constructor(ctx: FleetContext, origin: string) {
    this.#ctx = ctx;
    this.#origin = origin;
  }

  requested(windowMs: number): void {
    if (this.#windowMs === 0) {
      this.#windowMs = windowMs;
      this.#width = Math.max(1, windowMs / BUDGET_BUCKETS);
    }
    this.#current().requests++;
    this.#unseenRequests++;
  }

  retried(): void {
    if (this.#windowMs === 0) return;
    this.#current().retries++;
    this.#unseenRetries++;
  }

  allows(options: RetryBudgetOptions): boolean | undefined {
    if (!this.#ctx.sharing) return undefined;
    // No read of this agent yet, or none lately (it was idle): nothing is known to be spent.
    const view = this.#view !== undefined && Date.now() - this.#view.at <= this.#ctx.staleAfterMs ? this.#view : EMPTY;
    const floor = options.minPerSecond * (options.windowMs / 1000);
    const headroom = options.ratio * view.requests + floor - view.retries;
    const share = (view.mine + SMOOTHING) / (view.requests + SMOOTHING * this.#ctx.replicas);
    return this.#unseenRetries + 1 <= share * headroom + options.ratio * this.#unseenRequests;
  }

  /** True while there is something to send or the window still holds this process's requests. */
  get active(): boolean {
    return this.#windowMs > 0 && Date.now() - this.#lastActive < this.#windowMs + this.#width;
  }

  /**
   * One sync round: adds the pending counts to the fleet's and reads the window back (one pipeline:
   * the writes go first, so the read includes them).
   * @throws the client's error when Redis cannot be reached (the counts sent are then lost for the
   * fleet); foreign data in a counter is overwritten, never thrown.
   */
  async sync(): Promise<void> {
    if (this.#windowMs === 0) return;
    const now = Date.now();
    const current = Math.floor(now / this.#width);
    const sending = [...this.#older, this.#pending].filter((p) => p.bucket >= current - BUDGET_BUCKETS && (p.requests > 0 || p.retries > 0));
    this.#older = [];
    this.#pending = { bucket: current, requests: 0, retries: 0 };
    const sent = { requests: 0, retries: 0 };
    const { commands } = this.#ctx;
    const ttl = this.#windowMs + 2 * this.#width;
    const writes: Promise<unknown>[] = [];
    for (const p of sending) {
      sent.requests += p.requests;
      sent.retries += p.retries;
      if (p.requests > 0) writes.push(commands.incrWithTtl(this.#key(p.bucket, 'q'), p.requests, ttl));
      if (p.retries > 0) writes.push(commands.incrWithTtl(this.#key(p.bucket, 'r'), p.retries, ttl));
    }
    const keys: string[] = [];
    for (let b = current - BUDGET_BUCKETS; b <= current; b++) keys.push(this.#key(b, 'q'), this.#key(b, 'r'));
    let values: unknown[];
    try {
      [values] = await Promise.all([commands.mget(keys), ...writes]);
    } finally {
      // Sent, or lost for the fleet: either way no longer waiting to be seen.
      this.#unseenRequests = Math.max(0, this.#unseenRequests - sent.requests);
      this.#unseenRetries = Math.max(0, this.#unseenRetries - sent.retries);
    }
    for (const p of sending) if (p.requests > 0) this.#mine.set(p.bucket, (this.#mine.get(p.bucket) ?? 0) + p.requests);
    let mine = 0;
    for (const [bucket, n] of this.#mine) {
      if (bucket < current - BUDGET_BUCKETS) this.#mine.delete(bucket);
      else mine += n;
    }
    let requests = 0;
    let retries = 0;
    values.forEach((value, i) => {
      const n = parseCount(value);
      if (n === undefined) this.#overwrite(keys[i], ttl);
      else if (i % 2 === 0) requests += n;
      else retries += n;
    });
    this.#view = { at: now, requests: Math.max(requests, mine), retries, mine };
  }

  /** The pending counts of the bucket of now (moving on to a new bucket when time did). */
  #current(): Pending {
    const now = Date.now();
    this.#lastActive = now;
    const bucket = Math.floor(now / this.#width);
    if (bucket !== this.#pending.bucket) {
      if (this.#pending.requests > 0 || this.#pending.retries > 0) {
        // Only buckets still in the window are worth sending: the list stays short however long Redis is away.
        this.#older = this.#older.filter((p) => p.bucket >= bucket - BUDGET_BUCKETS);
        this.#older.push(this.#pending);
      }
      this.#pending = { bucket, requests: 0, retries: 0 };
    }
    return this.#pending;
  }

  #key(bucket: number, field: 'q' | 'r'): string {
    return this.#ctx.keys.budget(this.#origin, this.#windowMs, bucket, field);
  }

  /** A counter holding something else than a count: set it to 0 (its counts are unknowable). */
  #overwrite(key: string | undefined, ttl: number): void {
    if (key === undefined) return;
    this.#ctx.commands.set(key, '0', ttl).catch((error: unknown) => {
      if (!isReplyError(error)) this.#ctx.failed(error);
    });
  }
}
