/**
 * The key layout under the store's prefix (`a2a:` by default), and how long each key lives. Every
 * key is written with an expiry, so nothing the store writes outlives its use:
 *
 * | key | holds | expires |
 * |---|---|---|
 * | `<prefix>breaker:<origin>` | the fleet's breaker state, JSON `{ v, state, openedAt, by }` | `halfOpenAfterMs` + 60 s after the last write |
 * | `<prefix>probe:<origin>` | the half-open probe lease: the id of the process that may probe | `halfOpenAfterMs` (1 s to 60 s) after its last renewal; kept until its holder probes, released when the probe ends or another process asks |
 * | `<prefix>probe-want:<origin>` | another process asked for the probe lease | the lease's life |
 * | `<prefix>fails:<origin>` | consecutive health failures across the fleet | 60 s after the last failure |
 * | `<prefix>budget:<origin>:<windowMs>:<bucket>:q` / `:r` | requests / retries of one time bucket (`windowMs / 10` wide) | `windowMs` + 2 buckets |
 * | `<prefix>replicas` | sorted set of the processes using the store, scored by when each was last seen | 2 × the liveness window after the last round |
 *
 * Pub/sub channel `<prefix>events` carries breaker openings and closings as they happen.
 */
export class KeyLayout {
  /** The pub/sub channel of breaker transitions. */
  readonly channel: string;

  constructor(readonly prefix: string) {
    this.channel = `${prefix}events`;
  }

  /** The fleet's breaker record of an agent. */
  breaker(origin: string): string {
    return `${this.prefix}breaker:${origin}`;
  }

  /** The half-open probe lease of an agent. */
  probe(origin: string): string {
    return `${this.prefix}probe:${origin}`;
  }

  /** Set by a process that wants the probe lease another one holds unused. */
  probeWant(origin: string): string {
    return `${this.prefix}probe-want:${origin}`;
  }

  /** The sorted set of live processes (one per prefix). */
  get replicas(): string {
    return `${this.prefix}replicas`;
  }

  /** The fleet's consecutive health failures of an agent. */
  fails(origin: string): string {
    return `${this.prefix}fails:${origin}`;
  }

  /** The requests (`q`) or retries (`r`) counter of budget bucket `bucket` (`floor(Date.now() / width)`). */
  budget(origin: string, windowMs: number, bucket: number, field: 'q' | 'r'): string {
    return `${this.prefix}budget:${origin}:${windowMs}:${bucket}:${field}`;
  }
}

/** Time a breaker record outlives its breaker's `halfOpenAfterMs`, so late readers still see it. */
export const RECORD_EXTRA_TTL_MS = 60_000;

/** Life of the fleet's consecutive-failure count after its last write. */
export const FAILS_TTL_MS = 60_000;

/** Budget buckets per window in Redis (the window is read back as this many buckets plus the current one). */
export const BUDGET_BUCKETS = 10;

/**
 * The probe lease's life: the breaker's `halfOpenAfterMs`, so a lease taken before a probe that fails
 * has expired by the next half-open even if its holder died, within [1 s, 60 s].
 */
export function leaseTtlMs(halfOpenAfterMs: number): number {
  return Math.min(60_000, Math.max(1000, Math.round(halfOpenAfterMs)));
}

/** The longest lease this store ever writes: a probe key living longer is foreign and taken over. */
export const MAX_LEASE_TTL_MS = 60_000;
