import { randomFillSync } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COALESCE_MS, PushSource, type FlowControl } from '../../src/transport/body-source.js';

/**
 * One step of the wire and its reader: a network read of chunks (pushed together, as undici's parser
 * does), the reader asking for the next chunk, microtasks running, or time passing (holds ending).
 */
type Step =
  | { kind: 'read'; chunks: number[] }
  | { kind: 'next' }
  | { kind: 'microtasks' }
  | { kind: 'time'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('read' as const), chunks: fc.array(fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 8_192, max: 70_000 })), { minLength: 1, maxLength: 5 }) }),
  fc.record({ kind: fc.constant('next' as const) }),
  fc.record({ kind: fc.constant('microtasks' as const) }),
  fc.record({ kind: fc.constant('time' as const), ms: fc.constantFrom(0, COALESCE_MS / 2, COALESCE_MS, COALESCE_MS * 3) }),
);

/** How the body ends: normally, by a network failure (after what arrived), or by a timer (at once). */
const ending = fc.constantFrom('end', 'network', 'timer', 'destroy' as const);

/** Flow control as undici's parser sees it: paused or not; no data is pushed while paused. */
function flow() {
  const state = { paused: false, pauses: 0, resumes: 0, aborted: false };
  const control: FlowControl = {
    pause: () => {
      state.paused = true;
      state.pauses++;
    },
    resume: () => {
      state.paused = false;
      state.resumes++;
    },
    abort: () => {
      state.aborted = true;
    },
  };
  return { state, control };
}

/** Random bytes, so any reordering, loss or duplication shows. */
function chunkOf(size: number): Uint8Array {
  return randomFillSync(new Uint8Array(size));
}

describe('PushSource (property: every chunking, read timing and ending, with and without coalesce)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('delivers exactly the bytes pushed, in order, then the ending; never leaves the connection paused once the reader has caught up', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), ending, fc.boolean(), fc.boolean(), async (steps, end, coalesce, endInRead) => {
        const { state, control } = flow();
        const src = new PushSource(control, coalesce);
        const pushed: Uint8Array[] = [];
        const received: Uint8Array[] = [];
        /** The reader's reads so far, one after another; each settles to its chunk or its error. */
        let reading: Promise<unknown> = Promise.resolve();
        /** The reader stops at the first `undefined` (the end), as every reader does. */
        let sawEnd = false;
        const collect = async (p: Promise<Uint8Array | undefined>) => {
          if (sawEnd) return undefined;
          const c = await p;
          if (c !== undefined) received.push(c);
          else sawEnd = true;
          return c;
        };
        const settled = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => e);
        for (const s of steps) {
          if (s.kind === 'read') {
            // undici delivers nothing while the exchange is paused: the read waits for the resume.
            if (state.paused) continue;
            for (const n of s.chunks) {
              const c = chunkOf(n);
              pushed.push(c);
              src.push(c);
            }
          } else if (s.kind === 'next') {
            // A reader never overlaps its reads: this one starts when the previous one settled.
            reading = settled(reading.then(() => collect(src.next())));
          } else if (s.kind === 'microtasks') await vi.advanceTimersByTimeAsync(0);
          else await vi.advanceTimersByTimeAsync(s.ms);
        }
        const error = new Error('boom');
        const finish = () => {
          if (end === 'end') src.end();
          else if (end === 'network') src.fail(error, false);
          else if (end === 'timer') src.fail(error, true);
          else src.destroy();
        };
        if (endInRead) {
          // The ending comes in the same network read as the last chunks, before any microtask runs.
          const c = chunkOf(100);
          pushed.push(c);
          src.push(c);
          finish();
        } else {
          // The reader catches up: it reads until a read waits (all that was queued is taken); once holds are
          // over, the connection reads again.
          for (let waits = false; !waits; ) {
            let done = false;
            reading = settled(reading.then(() => collect(src.next()))).then((r) => {
              done = true;
              return r;
            });
            await vi.advanceTimersByTimeAsync(0);
            waits = !done;
          }
          await vi.advanceTimersByTimeAsync(COALESCE_MS * 2);
          expect(state.paused).toBe(false);
          finish();
        }
        const last = await reading;
        // Read to the end.
        let outcome: unknown = last instanceof Error ? last : 'end';
        while (outcome === 'end' && !sawEnd) {
          try {
            const c = await collect(src.next());
            if (c === undefined) break;
          } catch (e) {
            outcome = e;
          }
        }
        await vi.advanceTimersByTimeAsync(COALESCE_MS * 10);
        expect(vi.getTimerCount()).toBe(0);
        const sent = Buffer.concat(pushed);
        const got = Buffer.concat(received);
        if (end === 'end' || end === 'network') expect(got.equals(sent)).toBe(true);
        else expect(got.equals(sent.subarray(0, got.length))).toBe(true);
        if (end === 'end') expect(outcome).toBe('end');
        else if (end === 'destroy') expect(outcome).toMatchObject({ code: 'UND_ERR_ABORTED' });
        else expect(outcome).toBe(error);
      }),
      { numRuns: 200 },
    );
  });
});
