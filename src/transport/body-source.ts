import { ignoreLate } from '../util/ignore-late.js';

/**
 * A response body as the shared reading code sees it, whichever engine produced it: pull the next
 * chunk, or destroy the stream (which closes the connection if the body is unread).
 */
export interface BodySource {
  /** The next chunk, or `undefined` at the end. Rejects when the stream fails or is aborted. */
  next(): Promise<Uint8Array | undefined>;
  /** Stops reading and releases the connection. Never throws. */
  destroy(): void;
  /**
   * True when `next()` rejects by itself as soon as the request's scope fails, so readers need
   * not race it against the scope.
   */
  readonly watched: boolean;
}

/** What a {@link PushSource} needs from the HTTP stack to apply backpressure and to stop the body. */
export interface FlowControl {
  pause(): void;
  resume(): void;
  /** Ends the exchange (closes the connection when the body is not complete). */
  abort(reason: Error): void;
}

/** Bytes buffered before the HTTP stack is paused; reading resumes it once the buffer is empty. */
const HIGH_WATER_BYTES = 256 * 1024;

/**
 * A {@link BodySource} fed by callbacks (undici's dispatch handler): chunks are queued as they arrive
 * (the connection is paused above {@link HIGH_WATER_BYTES}) and handed out by `next()`. A failure
 * recorded with `discard` (a timer, the deadline, the caller's abort) is reported at once; a network
 * failure is reported after the chunks that arrived before it.
 */
export class PushSource implements BodySource {
  readonly watched = true;
  readonly #flow: FlowControl;
  readonly #chunks: Uint8Array[] = [];
  #head = 0;
  #buffered = 0;
  #paused = false;
  #ended = false;
  #error: Error | undefined;
  #waiter: { resolve: (chunk: Uint8Array | undefined) => void; reject: (error: Error) => void } | undefined;

  constructor(flow: FlowControl) {
    this.#flow = flow;
  }

  /** True once the body ended, failed or was destroyed. */
  get settled(): boolean {
    return this.#ended || this.#error !== undefined;
  }

  /** Takes a chunk from the wire. */
  push(chunk: Uint8Array): void {
    if (this.settled) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter.resolve(chunk);
      return;
    }
    this.#chunks.push(chunk);
    this.#buffered += chunk.byteLength;
    if (!this.#paused && this.#buffered > HIGH_WATER_BYTES) {
      this.#paused = true;
      this.#flow.pause();
    }
  }

  /** The body is complete. */
  end(): void {
    if (this.settled) return;
    this.#ended = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter !== undefined && this.#head >= this.#chunks.length) waiter.resolve(undefined);
  }

  /** The body failed; `discard` drops what is buffered so the error is reported at once. The first failure wins. */
  fail(error: Error, discard: boolean): void {
    if (this.settled) return;
    this.#error = error;
    if (discard) this.#release();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
  }

  next(): Promise<Uint8Array | undefined> {
    if (this.#head < this.#chunks.length) {
      const chunk = this.#chunks[this.#head] as Uint8Array;
      this.#head++;
      this.#buffered -= chunk.byteLength;
      if (this.#head === this.#chunks.length) {
        this.#chunks.length = 0;
        this.#head = 0;
        if (this.#paused && !this.settled) {
          this.#paused = false;
          this.#flow.resume();
        }
      }
      return Promise.resolve(chunk);
    }
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  destroy(): void {
    this.#release();
    if (this.settled) return;
    const closed = Object.assign(new Error('The response body was released before its end'), { code: 'UND_ERR_ABORTED' });
    this.#error = closed;
    // A read still waiting ends too (its reader let go of the body).
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(closed);
    this.#flow.abort(closed);
  }

  #release(): void {
    this.#chunks.length = 0;
    this.#head = 0;
    this.#buffered = 0;
  }
}

/** A {@link BodySource} over a WHATWG `ReadableStream` (a fetch body). */
export function webStreamSource(stream: ReadableStream<Uint8Array> | null): BodySource {
  if (stream === null) return { watched: false, next: () => Promise.resolve(undefined), destroy: () => undefined };
  const reader = stream.getReader();
  let done = false;
  return {
    watched: false,
    async next() {
      const step = await reader.read();
      if (step.done) done = true;
      return step.done ? undefined : step.value;
    },
    destroy() {
      if (done) return;
      done = true;
      reader.cancel().catch(ignoreLate);
    },
  };
}
