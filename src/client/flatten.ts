/**
 * One item at a time from an async iterable of batches: the public streams are read this way, while
 * everything below them works a network read (a batch) at a time. Cheaper than an async generator
 * (an item already buffered is handed out without resuming any generator); `return()` (a `break`)
 * closes the source; overlapping `next()` calls are served in order.
 */
export function flatten<T>(batches: AsyncIterable<readonly T[]>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => new FlatIterator(batches[Symbol.asyncIterator]()) };
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

class FlatIterator<T> implements AsyncIterator<T, undefined> {
  readonly #source: AsyncIterator<readonly T[]>;
  #batch: readonly T[] = [];
  #index = 0;
  #done = false;
  #pulling: Promise<IteratorResult<T, undefined>> | undefined;

  constructor(source: AsyncIterator<readonly T[]>) {
    this.#source = source;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#pulling !== undefined) return this.#pulling.then(() => this.next());
    if (this.#index < this.#batch.length) {
      const value = this.#batch[this.#index] as T;
      this.#index++;
      return Promise.resolve({ value, done: false });
    }
    if (this.#done) return Promise.resolve(DONE);
    const pulling = this.#pull();
    this.#pulling = pulling;
    const clear = (): void => {
      if (this.#pulling === pulling) this.#pulling = undefined;
    };
    pulling.then(clear, clear);
    return pulling;
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.#done = true;
    this.#batch = [];
    this.#index = 0;
    await this.#source.return?.();
    return DONE;
  }

  async #pull(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      let step: IteratorResult<readonly T[]>;
      try {
        step = await this.#source.next();
      } catch (error) {
        this.#done = true;
        throw error;
      }
      if (step.done === true) {
        this.#done = true;
        return DONE;
      }
      const batch = step.value;
      if (batch.length > 0) {
        this.#batch = batch;
        this.#index = 1;
        return { value: batch[0] as T, done: false };
      }
    }
  }
}
