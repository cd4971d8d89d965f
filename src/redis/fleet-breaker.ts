import type { CircuitBreakerOptions } from '../resilience/options.js';
import type { BreakerSync, FleetControlledBreaker } from '../resilience/state-sync.js';
import type { FleetContext } from './fleet-context.js';
import { FAILS_TTL_MS, leaseTtlMs, MAX_LEASE_TTL_MS, RECORD_EXTRA_TTL_MS } from './keys.js';
import type { BreakerRecord } from './records.js';

/** How long a process waits before asking for the probe lease again when it does not know better. */
const LEASE_RETRY_MS = 100;
/** Longest wait before asking again while another process holds the lease (its outcome normally comes first). */
const LEASE_RECHECK_MS = 1000;
/**
 * How far ahead of this process's clock another process's opening may be dated (clocks of replicas
 * drift). A record dated later is foreign: it would keep the breaker open for as long as it says.
 */
const MAX_CLOCK_SKEW_MS = 30_000;
/** A lease held unused is given up to a process that asks for it only after this long. */
const LEASE_MIN_HOLD_MS = 1000;

type Lease = 'none' | 'acquiring' | 'held' | 'probing';

/**
 * One agent's breaker made one breaker for the fleet (a {@link BreakerSync}). Everything it does on
 * the breaker's behalf runs in the background; a successful call never waits for it.
 *
 * - **Counting.** With `consecutiveFailures` (not `sampling`), health failures are added to
 *   `<prefix>fails:<origin>` as they happen (batched per event-loop turn, one write in flight) and a
 *   success resets it: the reply is the fleet's count, and the process whose failure reaches the
 *   threshold opens its breaker — and so the fleet's. Until that reply (at most `timeoutMs`), the
 *   next call to the agent here waits ({@link reported}): it is decided on the count, not raced
 *   against it, so the agent sees at most the threshold plus what was in flight, however late a
 *   process reports (a cold one builds its error decoders on its first failure).
 * - **Opening and closing.** A transition decided here is written to `<prefix>breaker:<origin>` and
 *   published on `<prefix>events`; other processes apply it ({@link apply}). A write that fails is
 *   repeated once Redis is back ({@link rewrite}).
 * - **One probe.** Past `halfOpenAfterMs`, a process probes only while it holds the lease
 *   `<prefix>probe:<origin>` (`SET NX PX`); the others keep failing fast until the probe's outcome
 *   arrives. The call that finds no lease asks for it in the background (and is refused); the lease,
 *   once held, is kept alive every sync round until a call here uses it — however rarely this process
 *   calls the agent — unless another process asks for it (`probe-want`) and it has gone unused for a
 *   second. It is released when the probe ends and expires if its holder dies.
 *
 * While the store is not synced, none of this applies: the breaker behaves as a local one.
 */
export class FleetBreaker implements BreakerSync {
  readonly #ctx: FleetContext;
  readonly #origin: string;
  readonly #breaker: FleetControlledBreaker;
  readonly #threshold: number | undefined;
  readonly #leaseTtlMs: number;
  readonly #recordTtlMs: number;
  #pendingFails = 0;
  #resetFails = false;
  /** The fleet's count of consecutive failures as last read (0 once reset). */
  #fleetFails = 0;
  #flushing = false;
  #flushQueued = false;
  #lease: Lease = 'none';
  /** `Date.now()` when the lease held now was taken. */
  #heldSince = 0;
  #leaseRetryAt = 0;
  #dirty = false;
  #writing = false;
  /** Pending while failures reported here are not counted by the fleet yet ({@link reported}); `#settle` ends it. */
  #reported: Promise<void> | undefined;
  #settle: (() => void) | undefined;

  constructor(ctx: FleetContext, origin: string, breaker: FleetControlledBreaker, options: CircuitBreakerOptions) {
    this.#ctx = ctx;
    this.#origin = origin;
    this.#breaker = breaker;
    this.#threshold = options.sampling ? undefined : options.consecutiveFailures;
    this.#leaseTtlMs = leaseTtlMs(options.halfOpenAfterMs);
    this.#recordTtlMs = options.halfOpenAfterMs + RECORD_EXTRA_TTL_MS;
  }

  /** True when this process has something to tell the fleet (a transition not written yet). */
  get dirty(): boolean {
    return this.#dirty;
  }

  failed(): void {
    if (this.#threshold === undefined || !this.#ctx.sharing) return;
    this.#pendingFails++;
    this.#awaitCount();
    this.#scheduleFlush();
  }

  /** Pending from a health failure until the fleet's reply counted it, `timeoutMs` passed, or sharing stopped. */
  reported(): Promise<void> | undefined {
    return this.#reported;
  }

  succeeded(): void {
    if (this.#fleetFails === 0 && this.#pendingFails === 0) return;
    this.#pendingFails = 0;
    this.#fleetFails = 0;
    this.#resetFails = true;
    this.#scheduleFlush();
  }

  opened(): void {
    this.#transition();
  }

  probing(): void {
    if (this.#lease === 'held') this.#lease = 'probing';
  }

  closed(): void {
    this.#transition();
  }

  probeWaitMs(): number {
    if (!this.#ctx.sharing) return 0;
    // Held: kept ours by the sync rounds (they drop it when it is lost), so this call is the probe.
    if (this.#lease === 'held') return 0;
    const now = Date.now();
    if (this.#lease !== 'acquiring' && now >= this.#leaseRetryAt) void this.#takeLease(now);
    return Math.max(1, this.#leaseRetryAt - now);
  }

  /**
   * Called every sync round: keeps an unused lease alive (or gives it up to a process that asked for
   * it), and lets go of one the breaker no longer needs. Never rejects.
   */
  tick(): void {
    if (this.#lease !== 'held' || !this.#ctx.sharing) return;
    if (this.#breaker.state !== 'open') {
      this.#endLease();
      return;
    }
    const { commands, keys, replica } = this.#ctx;
    const mayYield = Date.now() - this.#heldSince >= LEASE_MIN_HOLD_MS;
    commands.renewLease(keys.probe(this.#origin), keys.probeWant(this.#origin), replica, this.#leaseTtlMs, mayYield).then(
      (outcome) => {
        if (outcome === 'kept' || this.#lease !== 'held') return;
        this.#lease = 'none';
        // Given up to another process (or lost): not taken back at once.
        this.#leaseRetryAt = Date.now() + LEASE_RECHECK_MS;
      },
      (error: unknown) => this.#ctx.failed(error),
    );
  }

  /**
   * Applies the fleet's state as read or announced: opens or closes the breaker when it is newer.
   * Returns false for a record dated further in the future than clocks drift (foreign: ignored).
   */
  apply(record: BreakerRecord): boolean {
    if (record.openedAt > Date.now() + MAX_CLOCK_SKEW_MS) return false;
    const changed = record.state === 'open' ? this.#breaker.trip(record.openedAt) : this.#breaker.closeFromFleet(record.openedAt);
    if (!changed) return true;
    this.#fleetFails = 0;
    if (this.#lease === 'held') this.#endLease();
    return true;
  }

  /** The fleet's consecutive-failure count as read by a sync round: a success here will reset it. */
  fleetFailures(count: number): void {
    if (this.#threshold !== undefined && !this.#flushing && this.#pendingFails === 0 && !this.#resetFails) this.#fleetFails = count;
  }

  /** Writes this process's breaker state (and announces it) when a transition is still untold. */
  rewrite(): void {
    if (!this.#dirty || this.#writing || !this.#ctx.sharing) return;
    const state = this.#breaker.state;
    // A probe is running here: its end is the next thing to tell.
    if (state === 'half-open') return;
    this.#dirty = false;
    this.#writing = true;
    const { keys, commands, replica } = this.#ctx;
    const record: BreakerRecord = { v: 1, state, openedAt: this.#breaker.openedAt, by: replica };
    Promise.all([
      commands.set(keys.breaker(this.#origin), JSON.stringify(record), this.#recordTtlMs),
      commands.publish(keys.channel, JSON.stringify({ ...record, origin: this.#origin })),
      commands.set(keys.fails(this.#origin), '0', FAILS_TTL_MS),
    ]).then(
      () => {
        this.#writing = false;
        this.rewrite();
      },
      (error: unknown) => {
        this.#writing = false;
        this.#dirty = true;
        this.#ctx.failed(error);
      },
    );
  }

  /** This process opened or closed the breaker: the probe (if any) ended, the count restarts, the fleet is told. */
  #transition(): void {
    this.#endLease();
    this.#fleetFails = 0;
    this.#dirty = true;
    this.rewrite();
  }

  /** Corrupt or foreign data at the record key: write this process's state over it. */
  overwrite(): void {
    this.#dirty = true;
    this.rewrite();
  }

  /** Starts waiting for the fleet to count the failures reported (one wait for all pending ones). */
  #awaitCount(): void {
    if (this.#reported !== undefined) return;
    this.#reported = new Promise<void>((resolve) => {
      // Redis not answering must not hold calls longer than it takes the store to call it down.
      const timer = setTimeout(() => this.#settle?.(), this.#ctx.timeoutMs);
      timer.unref?.();
      this.#settle = () => {
        clearTimeout(timer);
        this.#reported = undefined;
        this.#settle = undefined;
        resolve();
      };
    });
  }

  #scheduleFlush(): void {
    if (this.#flushing || this.#flushQueued) return;
    this.#flushQueued = true;
    setImmediate(() => {
      this.#flushQueued = false;
      void this.#flushFails();
    });
  }

  /** Sends the failures (or the reset) counted since the last flush; never rejects. */
  async #flushFails(): Promise<void> {
    const n = this.#pendingFails;
    const reset = this.#resetFails;
    this.#pendingFails = 0;
    this.#resetFails = false;
    if (!this.#ctx.sharing || (n === 0 && !reset)) {
      this.#settle?.();
      return;
    }
    this.#flushing = true;
    try {
      const key = this.#ctx.keys.fails(this.#origin);
      let total: number | undefined = n;
      if (reset) await this.#ctx.commands.set(key, String(n), FAILS_TTL_MS);
      else total = await this.#ctx.commands.incrWithTtl(key, n, FAILS_TTL_MS);
      if (total !== undefined) this.#fleetFails = total;
      if (this.#threshold !== undefined && this.#fleetFails >= this.#threshold && this.#breaker.state === 'closed') {
        if (this.#breaker.trip(this.#breaker.nextOpening())) this.#transition();
      }
    } catch (error) {
      this.#ctx.failed(error);
    } finally {
      this.#flushing = false;
      // Counted (and the breaker opened when the count says so): the calls held for it decide now.
      if (this.#pendingFails > 0 || this.#resetFails) this.#scheduleFlush();
      else this.#settle?.();
    }
  }

  /** Asks for the probe lease; never rejects. A lease key without expiry (or a longer one than ours) is foreign: taken over. */
  async #takeLease(now: number): Promise<void> {
    this.#lease = 'acquiring';
    this.#leaseRetryAt = now + LEASE_RETRY_MS;
    const { commands, keys, replica } = this.#ctx;
    const key = keys.probe(this.#origin);
    try {
      let got = await commands.setIfAbsent(key, replica, this.#leaseTtlMs);
      if (!got) {
        const left = await commands.pttl(key);
        if (left === -1 || left > MAX_LEASE_TTL_MS) {
          await commands.set(key, replica, this.#leaseTtlMs);
          got = true;
        } else {
          this.#leaseRetryAt = Date.now() + Math.min(LEASE_RECHECK_MS, Math.max(LEASE_RETRY_MS, left));
          // Held by another process, maybe unused there: ask for it.
          await commands.set(keys.probeWant(this.#origin), replica, this.#leaseTtlMs);
        }
      }
      if (got && this.#lease === 'acquiring') {
        this.#lease = 'held';
        this.#heldSince = now;
        return;
      }
      // The breaker moved on while the lease was on its way: give it back.
      if (got) await commands.deleteIfEqual(key, replica);
    } catch (error) {
      this.#ctx.failed(error);
    }
    if (this.#lease === 'acquiring') this.#lease = 'none';
  }

  /** The probe ended here (or is moot): give the lease back so the next half-open need not wait for its expiry. */
  #endLease(): void {
    const held = this.#lease === 'held' || this.#lease === 'probing';
    this.#lease = 'none';
    this.#leaseRetryAt = 0;
    if (!held || !this.#ctx.sharing) return;
    this.#ctx.commands.deleteIfEqual(this.#ctx.keys.probe(this.#origin), this.#ctx.replica).catch((error: unknown) => this.#ctx.failed(error));
  }
}
