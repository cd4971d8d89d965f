import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PushSource } from '../../src/transport/body-source.js';
import { decodeContent } from '../../src/transport/content-decoding.js';
import type { SseEvent } from '../../src/transport/engine.js';
import { SseFramer } from '../../src/transport/sse-reader.js';

/** Event data: multi-byte characters (split across chunks and flushes), JSON-ish punctuation. */
const data = fc.array(fc.constantFrom('a', 'Z', ' ', ':', '{', '"', 'é', '€', '😀', 'token '), { maxLength: 40 }).map((cs) => cs.join(''));
const events = fc.array(fc.record({ id: fc.nat({ max: 999 }).map(String), data }), { minLength: 1, maxLength: 12 });

const frame = (e: { id: string; data: string }) => `id: ${e.id}\ndata: ${e.data}\n\n`;

/** Compresses `frames` with gzip, sync-flushing after the frames whose index is in `flushAfter`; returns the bytes and the offset of each flush. */
function gzipWithFlushes(frames: string[], flushAfter: Set<number>): Promise<{ bytes: Buffer; flushes: Array<{ offset: number; events: number }> }> {
  return new Promise((resolve, reject) => {
    const gz = zlib.createGzip({ level: 6 });
    const out: Buffer[] = [];
    let size = 0;
    const flushes: Array<{ offset: number; events: number }> = [];
    gz.on('data', (b: Buffer) => {
      out.push(b);
      size += b.length;
    });
    gz.on('error', reject);
    gz.on('end', () => resolve({ bytes: Buffer.concat(out), flushes }));
    const step = (i: number) => {
      if (i === frames.length) {
        gz.end();
        return;
      }
      gz.write(frames[i] as string);
      if (flushAfter.has(i)) {
        gz.flush(zlib.constants.Z_SYNC_FLUSH, () => {
          flushes.push({ offset: size, events: i + 1 });
          step(i + 1);
        });
      } else step(i + 1);
    };
    step(0);
  });
}

/** Reads decoded chunks into the framer until `count` events came; fails instead of waiting more than a second. */
async function readEvents(source: { next(): Promise<Uint8Array | undefined> }, framer: SseFramer, got: SseEvent[], count: number): Promise<void> {
  while (got.length < count) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`stalled at ${got.length} of ${count} events: the decoder held back flushed bytes`)), 1_000);
    });
    try {
      const chunk = await Promise.race([source.next(), stalled]);
      got.push(...framer.push(chunk));
      if (chunk === undefined) return;
    } finally {
      clearTimeout(timer);
    }
  }
}

describe('gzip-decoded SSE, property-based', () => {
  it('gives the reference events for any chunking, and every flushed event before the bytes after its flush arrive', async () => {
    await fc.assert(
      fc.asyncProperty(
        events.chain((list) =>
          fc.record({
            list: fc.constant(list),
            flushAfter: fc.uniqueArray(fc.nat({ max: list.length - 1 }), { maxLength: list.length }),
            cuts: fc.uniqueArray(fc.nat({ max: 4_000 }), { maxLength: 16 }),
          }),
        ),
        async ({ list, flushAfter, cuts }) => {
          const frames = list.map(frame);
          const { bytes, flushes } = await gzipWithFlushes(frames, new Set(flushAfter));
          // Wire chunks: cut at random offsets and at every flush point.
          const at = [...new Set([0, ...cuts.filter((c) => c < bytes.length), ...flushes.map((f) => f.offset), bytes.length])].sort((a, b) => a - b);
          const source = new PushSource({ pause: () => undefined, resume: () => undefined, abort: () => undefined });
          const decoded = decodeContent(source, 'gzip');
          const framer = new SseFramer(1024 * 1024);
          const got: SseEvent[] = [];
          for (let i = 1; i < at.length; i++) {
            const end = at[i] as number;
            source.push(bytes.subarray(at[i - 1], end));
            // Every event flushed at or before this offset decodes now, without the bytes after it.
            const flushed = flushes.filter((f) => f.offset <= end).reduce((n, f) => Math.max(n, f.events), 0);
            await readEvents(decoded, framer, got, flushed);
          }
          source.end();
          await readEvents(decoded, framer, got, Number.POSITIVE_INFINITY);
          expect(got).toEqual(list.map((e) => ({ id: e.id, event: undefined, data: e.data })));
        },
      ),
      { numRuns: 60 },
    );
  });
});
