import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import type { SseEvent } from '../../src/transport/engine.js';
import { SseFramer } from '../../src/transport/sse-reader.js';
import { referenceSse } from './sse-reference.js';

const enc = new TextEncoder();

/** Characters that stress the parser: multi-byte and astral ones, colons, spaces, NUL, BOM, Latin-1 "ï»¿". */
const char = fc.oneof(
  fc.constantFrom('a', 'Z', ' ', ':', '{', '"', 'é', '€', '😀', '\u0000', '\uFEFF', 'ï', '»', '¿', '\uFFFD'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\r' && c !== '\n'),
);
const text = (max: number) => fc.array(char, { maxLength: max }).map((cs) => cs.join(''));
const eol = fc.constantFrom('\n', '\r', '\r\n');
const space = fc.constantFrom('', ' ', '  ');

/** One field line of any kind the spec knows, and a few it does not. */
const line = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(space, text(12)).map(([s, v]) => `data:${s}${v}`) },
  fc.constant('data'),
  fc.tuple(space, fc.constantFrom('', 'error', 'message', 'é')).map(([s, v]) => `event:${s}${v}`),
  fc.tuple(space, text(6)).map(([s, v]) => `id:${s}${v}`),
  fc.constant('id'),
  fc.tuple(space, fc.oneof(fc.nat({ max: 9999 }).map(String), text(4))).map(([s, v]) => `retry:${s}${v}`),
  text(8).map((v) => `:${v}`),
  fc.tuple(fc.constantFrom('Data', 'dat', 'x', 'events', ' data'), text(4)).map(([f, v]) => `${f}:${v}`),
  text(6).filter((v) => !v.startsWith(':')),
);

/** A block: lines with their own line ends, then a blank line (a line end). */
const block = fc.tuple(fc.array(fc.tuple(line, eol), { maxLength: 4 }), eol).map(([lines, end]) => lines.map(([l, e]) => l + e).join('') + end);

/** A whole stream: optional BOM, blocks, optional unterminated tail (lines without their blank line). */
const stream = fc
  .tuple(fc.boolean(), fc.array(block, { maxLength: 6 }), fc.array(fc.tuple(line, eol), { maxLength: 2 }), fc.oneof(fc.constant(''), line))
  .map(([bom, blocks, tail, partial]) => enc.encode(`${bom ? '\uFEFF' : ''}${blocks.join('')}${tail.map(([l, e]) => l + e).join('')}${partial}`));

/** Splits bytes at random offsets (inside characters, between CR and LF), or byte by byte. */
function chunked(bytes: Uint8Array): fc.Arbitrary<Uint8Array[]> {
  const byByte = fc.constant(Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1)));
  const random = fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { maxLength: 12 }).map((cuts) => {
    const at = [0, ...cuts.filter((c) => c < bytes.length).sort((a, b) => a - b), bytes.length];
    return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
  });
  return fc.oneof({ weight: 4, arbitrary: random }, byByte, fc.constant<Uint8Array[]>([bytes]));
}

const withChunks = stream.chain((bytes) => chunked(bytes).map((chunks) => ({ bytes, chunks })));

/** Runs the framer as the stream reader does: push each chunk, then check the cap, then end. */
function run(chunks: Uint8Array[], max: number): { events: SseEvent[]; error: unknown; framer: SseFramer } {
  const framer = new SseFramer(max);
  const events: SseEvent[] = [];
  try {
    for (const chunk of chunks) {
      events.push(...framer.push(chunk));
      framer.checkCap();
    }
    events.push(...framer.push(undefined));
  } catch (error) {
    return { events: events.map(plain), error, framer };
  }
  return { events: events.map(plain), error: undefined, framer };
}

/** The event without keys whose value is undefined (the reference never sets them). */
function plain(e: SseEvent): SseEvent {
  const out: SseEvent = { data: e.data };
  if (e.event !== undefined) out.event = e.event;
  if (e.id !== undefined) out.id = e.id;
  return out;
}

describe('SseFramer against the spec reference', () => {
  it('decodes every stream, however chunked, to the reference events', () => {
    fc.assert(
      fc.property(withChunks, ({ bytes, chunks }) => {
        const ref = referenceSse(bytes);
        const { events, error, framer } = run(chunks, Number.MAX_SAFE_INTEGER);
        expect(error).toBeUndefined();
        expect(events).toEqual(ref.events.map((e) => e.event));
        expect(framer.lastEventId).toBe(ref.lastDispatchedId);
      }),
      { numRuns: 600 },
    );
  });

  it('delivers events as soon as their blank line arrives, even a lone CR', () => {
    fc.assert(
      fc.property(withChunks, ({ bytes, chunks }) => {
        // Everything but the end of the stream: what is complete must already be out.
        const framer = new SseFramer(Number.MAX_SAFE_INTEGER);
        const seen = chunks.flatMap((c) => [...framer.push(c)].map(plain));
        expect(seen).toEqual(referenceSse(bytes).events.map((e) => e.event));
      }),
      { numRuns: 300 },
    );
  });

  it('fails with invalid-response exactly when an event is over the cap, after the events before it', () => {
    fc.assert(
      fc.property(withChunks, fc.integer({ min: 1, max: 80 }), ({ bytes, chunks }, max) => {
        const ref = referenceSse(bytes);
        const over = ref.sizes.findIndex((size) => size > max);
        const { events, error } = run(chunks, max);
        const expected = ref.events.filter((e) => over < 0 || e.block < over).map((e) => e.event);
        expect(events).toEqual(expected);
        if (over < 0) {
          expect(error).toBeUndefined();
        } else {
          expect(isA2AClientError(error)).toBe(true);
          expect(error).toMatchObject({ kind: 'invalid-response', field: 'event' });
        }
      }),
      { numRuns: 600 },
    );
  });

  it.each([
    ['\n\r', 'data: a\n\r'],
    ['\r\r', 'data: a\r\r'],
    ['\r\n\r', 'data: a\r\n\r'],
  ])('delivers a final event whose blank line is a lone CR at the end of the stream (%j)', (_name, body) => {
    const bytes = enc.encode(body);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
      expect(run(chunks, 1_000).events).toEqual([{ data: 'a' }]);
    }
  });

  it('counts the bytes of an event, not its characters: a 4-byte character split over chunks', () => {
    const bytes = enc.encode(`data: ${'😀'.repeat(5)}\n\n`);
    // "data: " + 20 bytes + LF = 27 bytes; 5 UTF-16 pairs would be 10 units.
    expect(run([bytes.subarray(0, 9), bytes.subarray(9)], 27).events).toEqual([{ data: '😀'.repeat(5) }]);
    expect(run([bytes.subarray(0, 9), bytes.subarray(9)], 26).error).toMatchObject({ kind: 'invalid-response', field: 'event' });
  });

  it('caps a long event even when comments keep arriving inside it', () => {
    const framer = new SseFramer(1_000);
    const piece = enc.encode(`data: ${'x'.repeat(100)}\n: keep-alive\n`);
    const error = (() => {
      for (let i = 0; i < 20; i++) framer.push(piece);
      return undefined;
    });
    expect(error).toThrow(expect.objectContaining({ kind: 'invalid-response', field: 'event' }));
  });

  it('does not count heartbeat comments between events against the cap', () => {
    const framer = new SseFramer(64);
    for (let i = 0; i < 1_000; i++) expect(framer.push(enc.encode(': ping\n\n'))).toEqual([]);
    expect([...framer.push(enc.encode('data: ok\n\n'))].map(plain)).toEqual([{ data: 'ok' }]);
  });
});
