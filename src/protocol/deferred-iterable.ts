/**
 * An async iterable whose source is made on its first read (`make` may wait, e.g. for a headers
 * function); every later read goes straight to the source, with no generator in between. `return()`
 * closes the source if it was made.
 */
export function deferredIterable<T>(make: () => Promise<AsyncIterable<T>>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => new DeferredIterator(make) };
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

class DeferredIterator<T> implements AsyncIterator<T, undefined> {
  readonly #make: () => Promise<AsyncIterable<T>>;
  #making: Promise<AsyncIterator<T>> | undefined;
  #source: AsyncIterator<T> | undefined;
  #closed = false;

  constructor(make: () => Promise<AsyncIterable<T>>) {
    this.#make = make;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#source !== undefined) return this.#source.next() as Promise<IteratorResult<T, undefined>>;
    if (this.#closed) return Promise.resolve(DONE);
    this.#making ??= this.#make().then((iterable) => {
      this.#source = iterable[Symbol.asyncIterator]();
      return this.#source;
    });
    return this.#making.then((source) => source.next() as Promise<IteratorResult<T, undefined>>);
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.#closed = true;
    // A source that failed to be made has nothing to close; its error already went to the read that made it.
    const source = this.#source ?? (await this.#making?.catch(() => undefined));
    await source?.return?.();
    return DONE;
  }
}
