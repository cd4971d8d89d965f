/**
 * Property: whatever order and repetition an agent's deliveries arrive in, the events of a task's
 * iteration carry its text exactly once, in order, and end with the final answer.
 * - whole-Task snapshots (the v0.3 official sender), any of them repeated, in any order, the final
 *   one anywhere: the chunk texts joined equal the latest snapshot's text, and so does the final event;
 * - v1.0 events (a Task read at registration, then status and artifact updates), each possibly
 *   repeated later by the agent's retry, non-final statuses possibly late: every chunk exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushReceiver } from '../../src/push/index.js';
import type { AgentEvent } from '../../src/index.js';
import { delivery, take, v03, v1, type Json } from './payloads.js';

const texts = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 });

async function run(bodies: readonly Json[]): Promise<AgentEvent[]> {
  const receiver = pushReceiver({ auth: () => true });
  const iteration = receiver.events('t1');
  for (const body of bodies) {
    const res = await receiver.handleRequest(delivery(body));
    if (res.status !== 204 && res.status !== 404) throw new Error(`unexpected ${res.status}`);
  }
  await receiver.close();
  return take(iteration);
}

const chunkText = (events: readonly AgentEvent[]): string => {
  expect(events.some((e) => e.replace === true)).toBe(false);
  return events.filter((e) => e.object === 'chat.completion.chunk' && e.state === undefined).map((e) => e.text ?? '').join('');
};

describe('push reconciliation (property)', () => {
  it('whole-Task snapshots, repeated and reordered', async () => {
    await fc.assert(
      fc.asyncProperty(
        texts,
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        async (parts, picks, finalAt) => {
          const snapshots = parts.map((_, k) => v03.task('t1', 'working', parts.slice(0, k + 1), 1));
          const order = picks.map((p) => snapshots[p % snapshots.length] as Json);
          order.splice(finalAt % (order.length + 1), 0, v03.task('t1', 'completed', parts, 2));
          const events = await run(order);
          const reference = parts.join('');
          expect(chunkText(events)).toBe(reference);
          expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: reference });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('v1.0 events after a registration snapshot, with replays and late statuses', async () => {
    await fc.assert(
      fc.asyncProperty(
        texts,
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 10 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
        async (parts, cut, replays, delays) => {
          // The Task read at registration holds the first `seen` chunks; the pushes carry the rest.
          const seen = cut % (parts.length + 1);
          const pushes: Json[] = parts.slice(seen).map((text, i) => v1.chunk('t1', text, seen + i > 0));
          for (let s = 0; s < 3; s++) pushes.splice(Math.min(pushes.length, s * 2), 0, v1.status('t1', 'working', 10 + s, `step ${s}`));
          // Non-final statuses delivered late: moved after later deliveries.
          for (const [from, to] of delays) {
            const i = from % pushes.length;
            if (!('statusUpdate' in (pushes[i] as Json))) continue;
            const [moved] = pushes.splice(i, 1);
            pushes.splice(Math.min(pushes.length, i + 1 + (to % 3)), 0, moved as Json);
          }
          // The agent's retries: a delivery repeated at some later point.
          for (const [which, after] of replays) {
            const i = which % pushes.length;
            pushes.splice(Math.min(pushes.length, i + 1 + (after % 4)), 0, pushes[i] as Json);
          }
          const bodies = [v1.task('t1', 'working', parts.slice(0, seen), 5), ...pushes, v1.status('t1', 'completed', 20)];
          const events = await run(bodies);
          const reference = parts.join('');
          expect(chunkText(events)).toBe(reference);
          // Each chunk is one event (the snapshot's part counts as one, when it has any).
          expect(events.filter((e) => e.object === 'chat.completion.chunk' && e.state === undefined)).toHaveLength(parts.length - seen + (seen > 0 ? 1 : 0));
          expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: reference });
          // Status texts never go back: each step at most once, in order.
          const steps = events.filter((e) => e.state === 'working').map((e) => e.text);
          expect(steps).toEqual([...steps].sort());
          expect(new Set(steps).size).toBe(steps.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
