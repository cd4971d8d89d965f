import { createParser } from 'eventsource-parser';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { SseEvent } from './engine.js';
import { SseEventCap } from './sse-event-cap.js';
import { platform } from '../platform/current.js';

const NONE: readonly SseEvent[] = Object.freeze([]);
const EMPTY = new Uint8Array(0);
const LF = 0x0a;
const CR = 0x0d;
/** The UTF-8 byte-order mark. */
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Incremental SSE framing over raw bytes, as the WHATWG `EventSource` parses a stream: lines end in
 * CRLF, CR or LF in any mix, split at any byte; a leading byte-order mark is dropped; a blank line
 * dispatches the event (`data:` lines joined with `\n`), unless it has no `data` field; comments and
 * unknown fields are ignored. At the end of the stream an event without its blank line is discarded,
 * as the spec says; a final blank line made of a lone CR counts (nothing can follow it). One event
 * is capped at `maxEventBytes` (see {@link SseEventCap} for how it is measured).
 */
export class SseFramer {
  // Keeps a multi-byte character split across chunks (Node: StringDecoder, at a sixth of the cost per
  // chunk of TextDecoder's stream mode, which the web build uses).
  readonly #decoder = platform.utf8Decoder();
  /** Bytes at the start of the stream that may be a byte-order mark; `undefined` once past it. */
  #head: Uint8Array | undefined = EMPTY;
  /** The text fed last ended with a CR (fed as CRLF): a LF starting the next text is that CR's. */
  #afterCr = false;
  #queue: SseEvent[] = [];
  readonly #parser;
  readonly #cap: SseEventCap;
  readonly #maxEventBytes: number;
  #overflow: A2AClientError | undefined;
  /** The last `id:` of a dispatched event (kept across events, as EventSource does). */
  lastEventId: string | undefined;

  /** `maxEventBytes` bounds the bytes of one event. */
  constructor(maxEventBytes: number) {
    this.#maxEventBytes = maxEventBytes;
    this.#cap = new SseEventCap(maxEventBytes);
    this.#parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) this.lastEventId = message.id;
        // The parser's own object already has the SseEvent shape: queued as is.
        this.#queue.push(message);
      },
    });
    // The parser strips "ï»¿" (a byte-order mark decoded as Latin-1) from its first input; the text it
    // gets is already decoded, and the BOM already dropped (#afterBom). An empty first feed turns that off.
    this.#parser.feed('');
  }

  /**
   * Feeds bytes (`undefined` = end of stream) and returns the events completed so far. When an event
   * outgrows the cap, the events before it are returned first and the next call (or {@link checkCap})
   * throws.
   * @throws A2AClientError `invalid-response` (field `event`) when one event grows past the cap.
   */
  push(chunk: Uint8Array | undefined): readonly SseEvent[] {
    this.checkCap();
    if (chunk === undefined) {
      // Fewer than three bytes that began like a byte-order mark: they were data after all.
      const head = this.#head;
      this.#head = undefined;
      if (head !== undefined && head.length > 0) this.#take(head);
      this.#feed(this.#decoder.end());
      // An event not terminated by a blank line is discarded, as the spec says.
      this.#parser.reset({ consume: false });
    } else {
      const bytes = this.#head === undefined ? chunk : this.#afterBom(chunk);
      if (bytes.length > 0) this.#take(bytes);
    }
    if (this.#queue.length === 0) return NONE;
    const events = this.#queue;
    this.#queue = [];
    return events;
  }

  /** Frames bytes of the stream (after its byte-order mark). */
  #take(bytes: Uint8Array): void {
    const cut = this.#cap.add(bytes);
    if (cut < 0) {
      this.#feed(this.#decoder.write(bytes));
      return;
    }
    this.#overflow = new A2AClientError({
      kind: 'invalid-response',
      message: `An SSE event exceeded the ${this.#maxEventBytes}-byte cap`,
      field: 'event',
      phase: 'after-send',
    });
    // Only the events before the oversize one are delivered; checkCap() throws after them.
    if (cut > 0) this.#feed(this.#decoder.write(bytes.subarray(0, cut)));
    if (this.#queue.length === 0) throw this.#overflow;
  }

  /**
   * The start of the stream without its byte-order mark (dropped, as EventSource does), which may come
   * split across chunks: up to two bytes that could begin one are held until the third arrives.
   */
  #afterBom(chunk: Uint8Array): Uint8Array {
    const head = this.#head as Uint8Array;
    const bytes = head.length === 0 ? chunk : platform.concat([head, chunk]);
    const n = Math.min(bytes.length, 3);
    for (let i = 0; i < n; i++) {
      if (bytes[i] !== BOM[i]) {
        this.#head = undefined;
        return bytes;
      }
    }
    if (n < 3) {
      this.#head = bytes.slice();
      return EMPTY;
    }
    this.#head = undefined;
    return bytes.subarray(3);
  }

  /**
   * Hands decoded text to the parser, which holds back a CR at the end of its input (it could be the
   * first half of a CRLF) until more text comes: at the end of the stream that would lose an event
   * ended by a lone CR, and in the middle it would delay one. A CR ending the text is fed with a LF
   * after it (CRLF is one line end, like the CR alone), and a LF starting the next text, which would be
   * the other half of that CRLF, is dropped.
   */
  #feed(text: string): void {
    if (text.length === 0) return;
    if (this.#afterCr) {
      this.#afterCr = false;
      if (text.charCodeAt(0) === LF) {
        if (text.length === 1) return;
        text = text.slice(1);
      }
    }
    if (text.charCodeAt(text.length - 1) === CR) {
      this.#afterCr = true;
      text = `${text}\n`;
    }
    this.#parser.feed(text);
  }

  /**
   * Throws if an event already outgrew the cap (after the events completed before it were returned).
   * @throws A2AClientError `invalid-response` (field `event`).
   */
  checkCap(): void {
    if (this.#overflow !== undefined) throw this.#overflow;
  }
}
