import { A2AClientError } from '../errors/a2a-client-error.js';

/**
 * Limits the calls in flight to one agent (`maxConcurrent`), with a FIFO queue of at most
 * `maxQueued` waiting calls. A queued call leaves the queue when its signal fires.
 */
export class Bulkhead {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  #active = 0;
  readonly #queue: Array<{ grant: () => void }> = [];

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
   * Waits for a slot; resolves with its release function (call it exactly once).
   * @throws A2AClientError kind `bulkhead-rejected` when slots and queue are full; the signal's
   * reason when it fires while queued.
   */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.#maxConcurrent) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    if (this.#queue.length >= this.#maxQueued) {
      return Promise.reject(
        new A2AClientError({
          kind: 'bulkhead-rejected',
          message: `Too many concurrent calls (maxConcurrent ${this.#maxConcurrent}, maxQueued ${this.#maxQueued})`,
        }),
      );
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: (): void => {
          signal.removeEventListener('abort', onAbort);
          this.#active++;
          resolve(this.#releaser());
        },
      };
      const onAbort = (): void => {
        const index = this.#queue.indexOf(entry);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(entry);
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
