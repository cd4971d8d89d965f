import type { DecodedBatch, SseEvent } from './engine.js';
import type { SseFramer } from './sse-reader.js';
import { cleanUpAfterSync } from '../util/clean-up-after.js';

/** What a {@link DecodedReader} needs from its response: the body, its timers and its release. */
export interface DecodedSource {
  /** The next chunk of the body (`undefined` at its end); rejects with the read's failure. */
  read(): Promise<Uint8Array | undefined>;
  /** A failed read as the error to report (the scope's failure first). */
  readError(error: unknown): unknown;
  /** Arms the idle timer (once, at the first read). */
  start(): void;
  /** Records that events arrived (restarts the idle timer). */
  touch(): void;
  /** Releases the scope and, with `destroy`, the connection. Idempotent. */
  finish(destroy: boolean): void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * A response body read as batches of decoded SSE events, one batch per network read that completed
 * events: each chunk is framed and decoded as soon as it arrives, in the callback of its read, with
 * no generator or extra promise per read. Errors go through `onError` before they are thrown; a
 * batch's items are delivered before the failure that ended it. Overlapping `next()` calls are served
 * in order. `return()` releases the body at once.
 */
export class DecodedReader<T> implements AsyncIterableIterator<T[]> {
  readonly #source: DecodedSource;
  readonly #framer: SseFramer;
  readonly #decode: (events: readonly SseEvent[]) => DecodedBatch<T>;
  readonly #onError: (error: unknown) => unknown;
  #started = false;
  /** The body ended (its last chunk was read). */
  #ended = false;
  #done = false;
  /** A failure found after a batch it follows: thrown by the next read. */
  #failure: { error: unknown } | undefined;
  #reading: Promise<IteratorResult<T[], undefined>> | undefined;

  constructor(source: DecodedSource, framer: SseFramer, decode: (events: readonly SseEvent[]) => DecodedBatch<T>, onError: (error: unknown) => unknown) {
    this.#source = source;
    this.#framer = framer;
    this.#decode = decode;
    this.#onError = onError;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T[], undefined>> {
    if (this.#reading !== undefined) return this.#reading.then(() => this.next());
    if (this.#done) return Promise.resolve(DONE);
    if (this.#failure !== undefined) return Promise.reject(this.#fail(this.#failure.error, false));
    if (this.#ended) {
      this.#end();
      return Promise.resolve(DONE);
    }
    if (!this.#started) {
      this.#started = true;
      this.#source.start();
    }
    const reading = this.#read();
    this.#reading = reading;
    return reading;
  }

  async return(): Promise<IteratorResult<T[], undefined>> {
    this.#done = true;
    this.#source.finish(true);
    return DONE;
  }

  #read(): Promise<IteratorResult<T[], undefined>> {
    return this.#source.read().then(this.#onChunk, this.#onReadError);
  }

  readonly #onChunk = (chunk: Uint8Array | undefined): IteratorResult<T[], undefined> | Promise<IteratorResult<T[], undefined>> => {
    if (this.#done) return this.#settle(DONE);
    const framer = this.#framer;
    let events: readonly SseEvent[];
    try {
      events = framer.push(chunk);
      if (events.length === 0) framer.checkCap();
    } catch (error) {
      throw this.#fail(error, true);
    }
    if (chunk === undefined) this.#ended = true;
    if (events.length > 0) {
      this.#source.touch();
      const { items, failure } = this.#decode(events);
      if (failure !== undefined) this.#failure = failure;
      else {
        try {
          framer.checkCap();
        } catch (error) {
          this.#failure = { error };
        }
      }
      if (items.length > 0) return this.#settle({ value: items, done: false });
      if (this.#failure !== undefined) throw this.#fail(this.#failure.error, true);
    }
    if (this.#ended) {
      this.#end();
      return this.#settle(DONE);
    }
    return this.#read();
  };

  readonly #onReadError = (error: unknown): IteratorResult<T[], undefined> => {
    // Released by return() while this read waited: the reader has ended already.
    if (this.#done) return this.#settle(DONE);
    throw this.#fail(this.#source.readError(error), true);
  };

  #settle(result: IteratorResult<T[], undefined>): IteratorResult<T[], undefined> {
    this.#reading = undefined;
    return result;
  }

  /** Ends the reader on a failure; returns the error to throw (after `onError`). */
  #fail(error: unknown, reading: boolean): unknown {
    if (reading) this.#reading = undefined;
    this.#failure = undefined;
    // Releasing the body must not replace the failure being reported.
    cleanUpAfterSync(error, () => this.#end());
    return this.#onError(error);
  }

  #end(): void {
    this.#done = true;
    this.#source.finish(!this.#ended);
  }
}
