import { ignoreLate } from '../util/ignore-late.js';
import { platform } from '../platform/current.js';

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
 * What `next()` hands out at most at once, joining queued chunks (a single larger chunk goes as it is):
 * one read's frames decode together, while what a reader holds in one batch stays small enough that
 * the young generation of the GC does not grow to keep it.
 */
const TAKE_BYTES = 16 * 1024;
/** Chunks handed out before the queue drops them from its array (see `#take`). */
const COMPACT_AT = 8;

/**
 * Event streams only: once {@link HOT_READS} network reads in a row have each ended less than this
 * many milliseconds after the one before, a small one ({@link SMALL_READ_BYTES}) makes the source stop
 * reading for this long, so the frames that follow arrive together in one read instead of one read (and
 * one wake-up) each. An event waits at most this long; a short stream (a task, its status, its end)
 * and frames further apart (a paced token stream) are never held.
 */
export const COALESCE_MS = 1;
/** Back-to-back reads before a hold (the first {@link HOT_READS} + 1 reads of a burst are never held). */
export const HOT_READS = 3;
/** A network read at least this large is already a batch: it never starts a hold. */
const SMALL_READ_BYTES = 8 * 1024;

type Waiter = { resolve: (chunk: Uint8Array | undefined) => void; reject: (error: Error) => void };

/**
 * A {@link BodySource} fed by callbacks (undici's dispatch handler): chunks are queued as they arrive
 * (the connection is paused above {@link HIGH_WATER_BYTES}) and `next()` hands out what is queued
 * joined into one chunk of up to {@link TAKE_BYTES}. A failure recorded with `discard` (a timer, the
 * deadline, the caller's abort) is reported at once; a network failure is reported after the chunks
 * that arrived before it.
 * With `coalesce` (event streams), the chunks of one network read reach a waiting reader together,
 * and a run of small reads in quick succession pauses the connection for {@link COALESCE_MS} (see there).
 */
export class PushSource implements BodySource {
  readonly watched = true;
  readonly #flow: FlowControl;
  readonly #coalesce: boolean;
  #chunks: Uint8Array[] = [];
  /** The first chunk not handed out yet. */
  #head = 0;
  #buffered = 0;
  /** Paused because the reader is behind. */
  #paused = false;
  /** Paused to let back-to-back frames gather (the timer that ends it). */
  #hold: ReturnType<typeof setTimeout> | undefined;
  /** Bytes pushed since the current network read began (0: none in progress). */
  #burst = 0;
  /** When the previous network read ended, or the last hold (`performance.now()`). */
  #lastBurst = Number.NEGATIVE_INFINITY;
  /** Reads in a row that ended less than {@link COALESCE_MS} after the one before (a hold continues the row). */
  #streak = 0;
  #ended = false;
  #error: Error | undefined;
  #waiter: Waiter | undefined;

  /** `coalesce`: gather back-to-back small reads (for event streams, where a frame may wait {@link COALESCE_MS}). */
  constructor(flow: FlowControl, coalesce = false) {
    this.#flow = flow;
    this.#coalesce = coalesce;
  }

  /** True once the body ended, failed or was destroyed. */
  get settled(): boolean {
    return this.#ended || this.#error !== undefined;
  }

  /** Takes a chunk from the wire. */
  push(chunk: Uint8Array): void {
    if (this.settled) return;
    if (this.#coalesce) {
      // The chunks of one network read are pushed synchronously: a microtask sees the read end.
      if (this.#burst === 0) queueMicrotask(this.#endBurst);
      this.#burst += chunk.byteLength;
    } else if (this.#waiter !== undefined) {
      const waiter = this.#waiter;
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
    this.#stopHold();
    if (!this.#queued) this.#takeWaiter()?.resolve(undefined);
  }

  /** The body failed; `discard` drops what is buffered so the error is reported at once. The first failure wins. */
  fail(error: Error, discard: boolean): void {
    if (this.settled) return;
    this.#error = error;
    this.#stopHold();
    if (discard) this.#release();
    if (!this.#queued) this.#takeWaiter()?.reject(error);
  }

  next(): Promise<Uint8Array | undefined> {
    if (this.#queued) return Promise.resolve(this.#take());
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
  }

  destroy(): void {
    this.#release();
    this.#stopHold();
    if (this.settled) return;
    const closed = Object.assign(new Error('The response body was released before its end'), { code: 'UND_ERR_ABORTED' });
    this.#error = closed;
    // A read still waiting ends too (its reader let go of the body).
    this.#takeWaiter()?.reject(closed);
    this.#flow.abort(closed);
  }

  /** The queued chunks joined, up to {@link TAKE_BYTES} (at least one); resumes a connection paused for backpressure once all is taken. */
  #take(): Uint8Array {
    const chunks = this.#chunks;
    const head = this.#head;
    let end = head + 1;
    let bytes = (chunks[head] as Uint8Array).byteLength;
    while (end < chunks.length && bytes + (chunks[end] as Uint8Array).byteLength <= TAKE_BYTES) bytes += (chunks[end++] as Uint8Array).byteLength;
    const chunk = end === head + 1 ? (chunks[head] as Uint8Array) : platform.concat(chunks.slice(head, end));
    this.#buffered -= bytes;
    if (end < chunks.length) {
      // Let go of the chunks taken once a few have gathered: a queue that never empties must not keep them.
      if (end >= COMPACT_AT) {
        this.#chunks = chunks.slice(end);
        this.#head = 0;
      } else this.#head = end;
      return chunk;
    }
    this.#chunks = [];
    this.#head = 0;
    if (this.#paused && !this.settled) {
      this.#paused = false;
      if (this.#hold === undefined) this.#flow.resume();
    }
    return chunk;
  }

  get #queued(): boolean {
    return this.#head < this.#chunks.length;
  }

  #takeWaiter(): Waiter | undefined {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    return waiter;
  }

  /**
   * A network read ended: its chunks go to a waiting reader together, and a small read in a row of
   * back-to-back ones starts a hold.
   */
  readonly #endBurst = (): void => {
    const now = performance.now();
    const small = this.#burst < SMALL_READ_BYTES;
    this.#burst = 0;
    this.#streak = now - this.#lastBurst < COALESCE_MS ? this.#streak + 1 : 0;
    this.#lastBurst = now;
    // A reader waiting gets what this read brought (nothing is taken without one).
    if (this.#waiter !== undefined && this.#queued) this.#takeWaiter()?.resolve(this.#take());
    if (!small || this.#streak < HOT_READS || this.#hold !== undefined || this.settled) return;
    this.#flow.pause();
    this.#hold = setTimeout(this.#endHold, COALESCE_MS);
  };

  readonly #endHold = (): void => {
    this.#hold = undefined;
    // The reads the hold gathered continue the row: the stream is still hot.
    this.#lastBurst = performance.now();
    if (!this.#paused && !this.settled) this.#flow.resume();
  };

  #stopHold(): void {
    if (this.#hold === undefined) return;
    clearTimeout(this.#hold);
    this.#hold = undefined;
  }

  #release(): void {
    this.#chunks = [];
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
