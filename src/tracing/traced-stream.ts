/**
 * A stream under one span: the span starts on the first read (a stream nobody reads leaves no open
 * span), notes each batch's conversation and task, and ends when the stream ends, fails, or the
 * reader stops early.
 */
import type { CallTrace } from '../resilience/call-trace.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * The stream `make(trace)` returns, traced by the span `start()` starts on the first read (when it
 * starts one: tracing may have been turned off since). Each item of a batch is `observe`d.
 */
export function tracedStream<T>(start: () => CallTrace | undefined, make: (trace: CallTrace | undefined) => AsyncIterable<T[]>): AsyncIterable<T[]> {
  return { [Symbol.asyncIterator]: () => new TracedIterator(start, make) };
}

class TracedIterator<T> implements AsyncIterator<T[], undefined> {
  readonly #start: () => CallTrace | undefined;
  readonly #make: (trace: CallTrace | undefined) => AsyncIterable<T[]>;
  #source: AsyncIterator<T[], undefined> | undefined;
  #trace: CallTrace | undefined;

  constructor(start: () => CallTrace | undefined, make: (trace: CallTrace | undefined) => AsyncIterable<T[]>) {
    this.#start = start;
    this.#make = make;
  }

  next(): Promise<IteratorResult<T[], undefined>> {
    if (this.#source === undefined) {
      this.#trace = this.#start();
      try {
        this.#source = this.#make(this.#trace)[Symbol.asyncIterator]() as AsyncIterator<T[], undefined>;
      } catch (error) {
        this.#trace?.end(error);
        return Promise.reject(error);
      }
    }
    if (this.#trace === undefined) return this.#source.next();
    return this.#source.next().then(this.#read, this.#fail);
  }

  /** Notes a batch, or ends the span with the stream (one function per iterator, not per read). */
  readonly #read = (result: IteratorResult<T[], undefined>): IteratorResult<T[], undefined> => {
    const trace = this.#trace;
    if (result.done === true) trace?.end();
    else if (trace !== undefined) for (const item of result.value) trace.observe(item);
    return result;
  };

  readonly #fail = (error: unknown): never => {
    this.#trace?.end(error);
    throw error;
  };

  async return(): Promise<IteratorResult<T[], undefined>> {
    try {
      await this.#source?.return?.();
    } finally {
      // The reader stopped: the call ended without a failure of its own.
      this.#trace?.end();
    }
    return DONE;
  }
}
