import { A2AClientError } from '../errors/a2a-client-error.js';
import type { CallScope } from '../transport/call-scope.js';

/** A queued call: `grant` gives it a slot, whose release is kept until the call has it. */
interface QueueEntry {
  grant: () => void;
  release?: (() => void) | undefined;
}

/**
 * Limits the calls in flight to one agent (`maxConcurrent`), with a FIFO queue of at most
 * `maxQueued` waiting calls. A queued call leaves the queue when its scope fails.
 */
export class Bulkhead {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  #active = 0;
  readonly #queue: QueueEntry[] = [];

  constructor(maxConcurrent: number, maxQueued = 0) {
    this.#maxConcurrent = maxConcurrent;
    this.#maxQueued = maxQueued;
  }

  /** Calls running now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Takes a free slot at once: its release function, or `undefined` when every slot is taken. */
  tryAcquire(): (() => void) | undefined {
    if (this.#active >= this.#maxConcurrent) return undefined;
    this.#active++;
    return this.#releaser();
  }

  /**
   * Waits for a slot under the call's `scope`; resolves with its release function (call it exactly once).
   * @throws A2AClientError kind `bulkhead-rejected` when slots and queue are full; the scope's
   * failure when it fails while queued (the call then leaves the queue).
   */
  acquire(scope: CallScope): Promise<() => void> {
    if (scope.failure) return Promise.reject(scope.failure);
    const free = this.tryAcquire();
    if (free) return Promise.resolve(free);
    if (this.#queue.length >= this.#maxQueued) {
      return Promise.reject(
        new A2AClientError({
          kind: 'bulkhead-rejected',
          message: `Too many concurrent calls (maxConcurrent ${this.#maxConcurrent}, maxQueued ${this.#maxQueued})`,
        }),
      );
    }
    const entry: QueueEntry = { grant: () => undefined };
    const granted = new Promise<() => void>((resolve) => {
      entry.grant = (): void => {
        this.#active++;
        entry.release = this.#releaser();
        resolve(entry.release);
      };
    });
    this.#queue.push(entry);
    // Told synchronously when the scope cuts the wait: leave the queue, or hand back a slot granted
    // a moment before (its grant would otherwise be dropped with the race).
    return scope.race(granted, () => {
      const index = this.#queue.indexOf(entry);
      if (index >= 0) this.#queue.splice(index, 1);
      else entry.release?.();
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#queue.shift()?.grant();
    };
  }
}
