/**
 * A whole-buffer SSE parser written from the WHATWG spec text ("Interpreting an event stream"), the
 * reference the incremental framer is compared with. Slow and simple on purpose.
 */
import type { SseEvent } from '../../src/transport/engine.js';

/** An event the spec dispatches, with the index of the block (see {@link ReferenceResult.sizes}) it came from. */
export interface ReferenceEvent {
  event: SseEvent;
  block: number;
}

/** What the spec makes of a whole stream. */
export interface ReferenceResult {
  /** Dispatched events, in order. */
  events: ReferenceEvent[];
  /**
   * Byte size of every block: the lines (with their line ends) between two blank lines; the last entry
   * is whatever follows the last blank line (an unterminated event, or 0).
   */
  sizes: number[];
  /** The last `id` field value of a dispatched event that had one. */
  lastDispatchedId: string | undefined;
}

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Decodes the whole stream (UTF-8, invalid bytes as U+FFFD), drops one leading U+FEFF, splits lines on
 * CRLF | CR | LF, and runs the spec's field steps. The text after the last line end is an incomplete
 * line: at the end of the stream it is discarded with the event it belongs to.
 */
export function referenceSse(bytes: Uint8Array): ReferenceResult {
  let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const events: ReferenceEvent[] = [];
  const sizes: number[] = [];
  let data = '';
  let eventType = '';
  let ownId: string | undefined;
  let lastDispatchedId: string | undefined;
  let size = 0;
  let pos = 0;
  const lineEnd = /\r\n|\r|\n/g;
  for (let m = lineEnd.exec(text); m !== null; m = lineEnd.exec(text)) {
    const line = text.slice(pos, m.index);
    pos = m.index + m[0].length;
    if (line === '') {
      // Dispatch: an empty data buffer dispatches nothing; otherwise its last LF is removed.
      if (data !== '') {
        const event: SseEvent = { data: data.slice(0, -1) };
        if (eventType !== '') event.event = eventType;
        if (ownId !== undefined) {
          event.id = ownId;
          lastDispatchedId = ownId;
        }
        events.push({ event, block: sizes.length });
      }
      sizes.push(size);
      size = 0;
      data = '';
      eventType = '';
      ownId = undefined;
      continue;
    }
    size += utf8(line) + m[0].length;
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventType = value;
    else if (field === 'data') data += `${value}\n`;
    else if (field === 'id' && !value.includes('\0')) ownId = value;
    // `retry` and unknown fields change no event.
  }
  sizes.push(size + utf8(text.slice(pos)));
  return { events, sizes, lastDispatchedId };
}
