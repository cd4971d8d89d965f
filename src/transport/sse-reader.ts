import { createParser } from 'eventsource-parser';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { SseEvent } from './engine.js';

const BLANK_LINE = /(?:\r\n|\r|\n)(?:\r\n|\r|\n)/g;
const LINE_END = /\r\n|\r|\n/g;

/** UTF-8 size of what follows the last match of `boundary` in `text` (the still-open part). */
function bytesAfter(text: string, boundary: RegExp): number {
  let end = 0;
  for (const match of text.matchAll(boundary)) end = match.index + match[0].length;
  return Buffer.byteLength(text.slice(end));
}

/** Incremental SSE framing over raw bytes, with a cap on the size of one event. */
export class SseFramer {
  readonly #decoder = new TextDecoder();
  readonly #queue: SseEvent[] = [];
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
        const event: SseEvent = { data: message.data };
        if (message.id !== undefined) event.id = message.id;
        if (message.event !== undefined) event.event = message.event;
        this.#queue.push(event);
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
  push(chunk: Uint8Array | undefined): SseEvent[] {
    this.checkCap();
    if (chunk === undefined) {
      this.#parser.feed(this.#decoder.decode());
      // An event not terminated by a blank line is dropped, as EventSource does.
      this.#parser.reset({ consume: false });
    } else {
      const text = this.#decoder.decode(chunk, { stream: true });
      this.#sawEvent = false;
      this.#sawComment = false;
      this.#parser.feed(text);
      this.#pendingBytes = this.#sawEvent
        ? bytesAfter(text, BLANK_LINE)
        : this.#sawComment
          ? bytesAfter(text, LINE_END)
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
    return this.#queue.splice(0);
  }

  /**
   * Throws if an event already outgrew the cap (after the events completed before it were returned).
   * @throws A2AClientError `invalid-response` (field `event`).
   */
  checkCap(): void {
    if (this.#overflow !== undefined) throw this.#overflow;
  }
}
