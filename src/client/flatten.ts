import { ignoreLate } from '../util/ignore-late.js';

/**
 * One item at a time from an async iterable of batches: the public streams are read this way, while
 * everything below them works a network read (a batch) at a time. Cheaper than an async generator
 * (an item already buffered is handed out without resuming any generator); `return()` (a `break`)
 * closes the source; overlapping `next()` calls are served in order. A {@link BatchReader} turns each
 * source batch into items (the event API converts there), so no generator layer is added for it.
 */
export function flatten<T>(batches: AsyncIterable<readonly T[]>): AsyncIterable<T>;
export function flatten<S, T>(batches: AsyncIterable<S>, reader: BatchReader<S, T>): AsyncIterable<T>;
export function flatten<S, T>(batches: AsyncIterable<S>, reader?: BatchReader<S, T>): AsyncIterable<T> {
  // Without a reader, S is T[] (the first overload): each batch is its own items.
  const read = reader ?? (PASS_THROUGH as unknown as BatchReader<S, T>);
  return { [Symbol.asyncIterator]: () => new FlatIterator(batches[Symbol.asyncIterator](), read) };
}

/** How {@link flatten} turns a source's batches, failure and end into items. */
export interface BatchReader<S, T> {
  /** The items of one batch; `last: true` ends the stream after them (the source is closed). */
  read(batch: S): { items: readonly T[]; last: boolean };
  /** The items that end the stream in place of a source failure; throw to pass the failure on. */
  fail(error: unknown): readonly T[];
  /** The items that follow the source's end. */
  end(): readonly T[];
}

const NONE: readonly never[] = Object.freeze([]);

const PASS_THROUGH: BatchReader<readonly unknown[], unknown> = {
  read: (batch) => ({ items: batch, last: false }),
  fail: (error) => {
    throw error;
  },
  end: () => NONE,
};

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

class FlatIterator<S, T> implements AsyncIterator<T, undefined> {
  readonly #source: AsyncIterator<S>;
  readonly #reader: BatchReader<S, T>;
  #batch: readonly T[] = NONE;
  #index = 0;
  #done = false;
  #pulling: Promise<IteratorResult<T, undefined>> | undefined;

  constructor(source: AsyncIterator<S>, reader: BatchReader<S, T>) {
    this.#source = source;
    this.#reader = reader;
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
    return pulling;
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.#done = true;
    this.#batch = NONE;
    this.#index = 0;
    await this.#source.return?.();
    return DONE;
  }

  /** Reads source batches until one has items or the stream ends; clears `#pulling` when it settles. */
  #pull(): Promise<IteratorResult<T, undefined>> {
    return this.#source.next().then(this.#onStep, this.#onFailure);
  }

  readonly #onStep = (step: IteratorResult<S>): IteratorResult<T, undefined> | Promise<IteratorResult<T, undefined>> => {
    let items: readonly T[];
    let last: boolean;
    try {
      ({ items, last } = step.done === true ? { items: this.#reader.end(), last: true } : this.#reader.read(step.value));
    } catch (error) {
      return this.#onFailure(error);
    }
    if (last) {
      this.#done = true;
      // Ended early by the reader: the source is told to stop (its own errors are of no interest now).
      if (step.done !== true) this.#source.return?.()?.catch(ignoreLate);
    }
    return this.#deliver(items, last);
  };

  readonly #onFailure = (error: unknown): IteratorResult<T, undefined> => {
    this.#done = true;
    let items: readonly T[];
    try {
      items = this.#reader.fail(error);
    } catch (failure) {
      this.#pulling = undefined;
      throw failure;
    }
    return this.#deliver(items, true) as IteratorResult<T, undefined>;
  };

  #deliver(items: readonly T[], last: boolean): IteratorResult<T, undefined> | Promise<IteratorResult<T, undefined>> {
    if (items.length > 0) {
      this.#pulling = undefined;
      this.#batch = items;
      this.#index = 1;
      return { value: items[0] as T, done: false };
    }
    if (last) {
      this.#pulling = undefined;
      return DONE;
    }
    return this.#pull();
  }
}
