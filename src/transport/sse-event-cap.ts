const LF = 0x0a;
const CR = 0x0d;

/**
 * Measures, on the raw bytes of an SSE stream, the size of each event so that one event larger than a
 * cap is caught whatever the chunking.
 *
 * An event's size is the number of bytes from the end of the blank line before it (or the start of the
 * stream, after its byte-order mark) up to the start of the blank line that ends it: its field lines,
 * comments and their line ends. The unterminated event at the end counts as it arrives. Line ends are
 * CRLF, CR or LF (a CR followed by LF is one line end); a blank line starts at a CR or LF that follows
 * another line end, so it is found from two bytes: LF LF, LF CR or CR CR (neither byte can be part of
 * a multi-byte UTF-8 character).
 *
 * Cost per chunk: O(1) when the chunk ends an event, else a native backward search over the last
 * event's tail; a full forward pass over the chunk only when the chunk could hold an event over the cap.
 */
export class SseEventCap {
  readonly #max: number;
  /** Bytes of the current (unfinished) event so far. */
  #pending = 0;
  /** The last byte seen; the start of the stream reads as a line end. */
  #last = LF;
  /** The previous chunk ended with the CR of a blank line: a leading LF completes it (CRLF). */
  #skipLf = false;

  /** `maxBytes`: the largest event accepted. */
  constructor(maxBytes: number) {
    this.#max = maxBytes;
  }

  /**
   * Accounts for the next chunk. Returns -1 when every event stays within the cap, else the offset in
   * `chunk` where the first event over the cap starts (0 when it started in an earlier chunk): the
   * bytes before that offset complete the events that came before it.
   */
  add(chunk: Uint8Array): number {
    const n = chunk.length;
    if (n === 0) return -1;
    const start = this.#skipLf && chunk[0] === LF ? 1 : 0;
    this.#skipLf = false;
    if (this.#pending + n - start > this.#max) return this.#scan(chunk, start);
    const b = this.#lastBoundary(chunk);
    if (b < 0) this.#pending += n - start;
    else this.#pending = n - this.#afterBlankLine(chunk, b);
    this.#last = chunk[n - 1] as number;
    return -1;
  }

  /** Offset just after the blank line that starts at `b` (its CRLF included); notes a CR ending the chunk. */
  #afterBlankLine(chunk: Uint8Array, b: number): number {
    if (chunk[b] !== CR) return b + 1;
    if (b + 1 === chunk.length) {
      this.#skipLf = true;
      return b + 1;
    }
    return chunk[b + 1] === LF ? b + 2 : b + 1;
  }

  /** True when a line-end byte `c` after byte `prev` starts a blank line. */
  static #blank(prev: number, c: number): boolean {
    return prev === LF || (prev === CR && c === CR);
  }

  /** The start of the last blank line in `chunk`, or -1. Walks line ends backwards from the end. */
  #lastBoundary(chunk: Uint8Array): number {
    const end = chunk.length - 1;
    const tail = chunk[end] as number;
    if ((tail === LF || tail === CR) && SseEventCap.#blank(end > 0 ? (chunk[end - 1] as number) : this.#last, tail)) return end;
    let lf = chunk.lastIndexOf(LF);
    let cr = chunk.lastIndexOf(CR);
    for (;;) {
      const i = lf > cr ? lf : cr;
      if (i < 0) return -1;
      if (SseEventCap.#blank(i > 0 ? (chunk[i - 1] as number) : this.#last, chunk[i] as number)) return i;
      if (i === lf) lf = i > 0 ? chunk.lastIndexOf(LF, i - 1) : -1;
      else cr = i > 0 ? chunk.lastIndexOf(CR, i - 1) : -1;
    }
  }

  /** Every event in `chunk`, in order: the offset where the first one over the cap starts, or -1. */
  #scan(chunk: Uint8Array, start: number): number {
    const n = chunk.length;
    let from = start;
    let eventStart = 0;
    let lf = chunk.indexOf(LF, start);
    let cr = chunk.indexOf(CR, start);
    for (;;) {
      const i = lf < 0 ? cr : cr < 0 || lf < cr ? lf : cr;
      if (i < 0) break;
      if (SseEventCap.#blank(i > 0 ? (chunk[i - 1] as number) : this.#last, chunk[i] as number)) {
        if (this.#pending + i - from > this.#max) return eventStart;
        this.#pending = 0;
        from = this.#afterBlankLine(chunk, i);
        eventStart = from;
      }
      if (i === lf) lf = chunk.indexOf(LF, i + 1);
      else cr = chunk.indexOf(CR, i + 1);
    }
    this.#last = chunk[n - 1] as number;
    this.#pending += n - from;
    return this.#pending > this.#max ? eventStart : -1;
  }
}
