/**
 * One turn at a time on a shared conversation: a model may call the same tool several times in one
 * step (parallel tool calls), and a `Conversation` refuses a turn while another is in flight.
 */

/** Lets callers take turns in the order they asked. */
export class TurnQueue {
  #tail: Promise<void> = Promise.resolve();

  /**
   * Waits for the turns asked before this one; resolves with the function that ends this turn, or
   * with `undefined` when `signal` aborted first (the turn is then skipped: later turns do not wait
   * for it). Never rejects.
   */
  take(signal?: AbortSignal): Promise<(() => void) | undefined> {
    let release = (): void => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => mine);
    if (signal?.aborted) {
      void previous.then(release);
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const onAbort = (): void => {
        void previous.then(release);
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal?.removeEventListener('abort', onAbort);
        // An abort that won the race already skipped this turn.
        if (!signal?.aborted) resolve(release);
      });
    });
  }
}
