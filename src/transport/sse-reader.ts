import { StringDecoder } from 'node:string_decoder';
import { createParser } from 'eventsource-parser';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { SseEvent } from './engine.js';

/**
 * UTF-8 size of what follows the last blank line (an event boundary) in `text`. Every blank line
 * contains `\n\n`, `\n\r` or `\r\r`; once one is found near the end, the others are only looked
 * for after it, so a chunk is not scanned whole for a line-end style it does not use.
 */
function bytesAfterBlankLine(text: string): number {
  let end = -1;
  for (const boundary of BOUNDARIES) end = lastIndexAfter(text, boundary, end);
  return Buffer.byteLength(end < 0 ? text : text.slice(end + 2));
}

const BOUNDARIES = ['\n\n', '\n\r', '\r\r'] as const;

/** The last index of `needle` in `text` if it is after `from` (else `from`): searched forward from `from` when that is known. */
function lastIndexAfter(text: string, needle: string, from: number): number {
  if (from < 0) return text.lastIndexOf(needle);
  let last = from;
  for (let i = text.indexOf(needle, from + 1); i >= 0; i = text.indexOf(needle, i + 1)) last = i;
  return last;
}

/** UTF-8 size of what follows the last line end in `text`. */
function bytesAfterLineEnd(text: string): number {
  const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return Buffer.byteLength(text.slice(end + 1));
}

const NONE: readonly SseEvent[] = Object.freeze([]);

/** Incremental SSE framing over raw bytes, with a cap on the size of one event. */
export class SseFramer {
  // StringDecoder keeps a multi-byte character split across chunks, like TextDecoder's stream mode,
  // at a sixth of its cost per chunk.
  readonly #decoder = new StringDecoder('utf8');
  #first = true;
  #queue: SseEvent[] = [];
  readonly #parser;
  readonly #maxEventBytes: number;
  #pendingBytes = 0;
  #sawEvent = false;
  #overflow: A2AClientError | undefined;
  #sawComment = false;
  /** The last `id:` seen so far (kept across events, as EventSource does). */
  lastEventId: string | undefined;

  /** `maxEventBytes` bounds the bytes buffered for one event. */
  constructor(maxEventBytes: number) {
    this.#maxEventBytes = maxEventBytes;
    this.#parser = createParser({
      onEvent: (message) => {
        this.#sawEvent = true;
        if (message.id !== undefined) this.lastEventId = message.id;
        // The parser's own object already has the SseEvent shape: queued as is.
        this.#queue.push(message);
      },
      onComment: () => {
        this.#sawComment = true;
      },
    });
  }

  /**
   * Feeds bytes (`undefined` = end of stream) and returns the events completed so far.
   * @throws A2AClientError `invalid-response` (field `event`) when one event grows past the cap.
   */
  push(chunk: Uint8Array | undefined): readonly SseEvent[] {
    this.checkCap();
    if (chunk === undefined) {
      this.#parser.feed(this.#decoder.end());
      // An event not terminated by a blank line is dropped, as EventSource does.
      this.#parser.reset({ consume: false });
    } else {
      const text = this.#decode(chunk);
      this.#sawEvent = false;
      this.#sawComment = false;
      this.#parser.feed(text);
      this.#pendingBytes = this.#sawEvent
        ? bytesAfterBlankLine(text)
        : this.#sawComment
          ? bytesAfterLineEnd(text)
          : this.#pendingBytes + chunk.byteLength;
      if (this.#pendingBytes > this.#maxEventBytes) {
        this.#overflow = new A2AClientError({
          kind: 'invalid-response',
          message: `An SSE event exceeded the ${this.#maxEventBytes}-byte cap`,
          field: 'event',
          phase: 'after-send',
        });
        // Events completed before the oversize one are still delivered; checkCap() throws after them.
        if (this.#queue.length === 0) throw this.#overflow;
      }
    }
    if (this.#queue.length === 0) return NONE;
    const events = this.#queue;
    this.#queue = [];
    return events;
  }

  /** Decodes a chunk; a byte-order mark at the very start of the stream is dropped, as EventSource does. */
  #decode(chunk: Uint8Array): string {
    const text = this.#decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (!this.#first || text.length === 0) return text;
    this.#first = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /**
   * Throws if an event already outgrew the cap (after the events completed before it were returned).
   * @throws A2AClientError `invalid-response` (field `event`).
   */
  checkCap(): void {
    if (this.#overflow !== undefined) throw this.#overflow;
  }
}
