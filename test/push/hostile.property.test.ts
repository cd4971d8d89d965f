/**
 * Property: whatever a sender posts — nested arbitrarily deep, at or over the size cap, with
 * prototype keys, very wide, any part type, either protocol version — each delivery is either taken
 * (2xx) and then delivered exactly once, or refused with a 4xx; never a 5xx, and a refused delivery
 * is not remembered as seen: the agent's retry of the same bytes gets the same answer, not a 204.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pushReceiver } from '../../src/push/index.js';
import type { AgentEvent } from '../../src/index.js';
import { delivery, take, v03, v1 } from './payloads.js';

const MAX_BODY = 64 * 1024;
const DEEP = '"@@DEEP@@"';
const PAD = '@@PAD@@';

type Version = 'v1' | 'v03';
type PartKind = 'text' | 'data' | 'file-bytes' | 'file-uri';
type Hostility = { kind: 'none' } | { kind: 'deep'; depth: number } | { kind: 'size'; over: number } | { kind: 'proto'; key: string } | { kind: 'wide'; parts: number };

function partOf(version: Version, kind: PartKind): Record<string, unknown> {
  const data = { deep: '@@DEEP-VALUE@@', pad: PAD };
  if (version === 'v1') {
    if (kind === 'text') return { text: `t ${PAD}`, metadata: data };
    if (kind === 'data') return { data };
    if (kind === 'file-bytes') return { raw: 'aGVsbG8=', mediaType: 'text/plain', filename: PAD, metadata: data };
    return { url: 'https://files.example/x', mediaType: 'text/plain', metadata: data };
  }
  if (kind === 'text') return { kind: 'text', text: `t ${PAD}`, metadata: data };
  if (kind === 'data') return { kind: 'data', data };
  if (kind === 'file-bytes') return { kind: 'file', file: { bytes: 'aGVsbG8=', mimeType: 'text/plain', name: PAD }, metadata: data };
  return { kind: 'file', file: { uri: 'https://files.example/x', mimeType: 'text/plain' }, metadata: data };
}

/** The body of delivery `i`: one artifact update whose first part is the marker text, then the hostile part(s). */
function bodyOf(i: number, version: Version, part: PartKind, hostility: Hostility): string {
  const marker = `MARK-${i}-`;
  const base = version === 'v1' ? (v1.chunk('t1', marker, false) as { artifactUpdate: { artifact: { artifactId: string; parts: unknown[] } } }) : (v03.chunk('t1', marker, false) as { artifact: { artifactId: string; parts: unknown[] } });
  const artifact = 'artifactUpdate' in base ? base.artifactUpdate.artifact : base.artifact;
  artifact.artifactId = `a${i}`;
  const count = hostility.kind === 'wide' ? hostility.parts : 1;
  for (let k = 0; k < count; k++) artifact.parts.push(partOf(version, part));
  let text = JSON.stringify(base);
  if (hostility.kind === 'deep') text = text.replace(/"@@DEEP-VALUE@@"/g, '{"a":'.repeat(hostility.depth) + '1' + '}'.repeat(hostility.depth));
  else text = text.replace(/"@@DEEP-VALUE@@"/g, DEEP.replace(/@/g, ''));
  if (hostility.kind === 'proto') {
    const key = JSON.stringify(hostility.key);
    text = text.replace('{', `{${key}:{"polluted":true},`).replace(/"pad":/g, `${key}:{"polluted":true},"pad":`);
  }
  const pad = hostility.kind === 'size' ? Math.max(0, MAX_BODY - text.length + hostility.over) : 0;
  return text.split(PAD).join('x'.repeat(Math.floor(pad / Math.max(1, text.split(PAD).length - 1))));
}

const hostility: fc.Arbitrary<Hostility> = fc.oneof(
  fc.constant<Hostility>({ kind: 'none' }),
  fc.constantFrom(2, 30, 60, 63, 64, 65, 70, 1000, 100_000).map((depth): Hostility => ({ kind: 'deep', depth })),
  fc.integer({ min: -200, max: 200 }).map((over): Hostility => ({ kind: 'size', over })),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty').map((key): Hostility => ({ kind: 'proto', key })),
  fc.constantFrom(10, 500, 3000).map((parts): Hostility => ({ kind: 'wide', parts })),
);

const deliveryArb = fc.record({
  version: fc.constantFrom<Version>('v1', 'v03'),
  part: fc.constantFrom<PartKind>('text', 'data', 'file-bytes', 'file-uri'),
  hostility,
  repeats: fc.integer({ min: 1, max: 3 }),
});

const marked = (events: readonly AgentEvent[], i: number): number => events.filter((e) => e.object === 'chat.completion.chunk' && (e.text ?? '').includes(`MARK-${i}-`)).length;

describe('hostile deliveries (property)', () => {
  it('2xx ⇒ delivered exactly once; otherwise a 4xx, the same for the retry; never a 5xx', async () => {
    // Before the fix, the first of these answered 500 and its retry 204 (lost).
    await fc.assert(
      fc.asyncProperty(fc.array(deliveryArb, { minLength: 1, maxLength: 5 }), async (plan) => {
        const receiver = pushReceiver({ auth: () => true, maxBodyBytes: MAX_BODY });
        const iteration = receiver.events('t1');
        const statuses: number[][] = [];
        for (const [i, d] of plan.entries()) {
          const body = bodyOf(i, d.version, d.part, d.hostility);
          const answers: number[] = [];
          for (let r = 0; r < d.repeats; r++) answers.push((await receiver.handleRequest(delivery(body))).status);
          statuses.push(answers);
        }
        expect((await receiver.handleRequest(delivery(v1.status('t1', 'completed', 30)))).status).toBe(204);
        const events = await take(iteration);
        for (const [i, answers] of statuses.entries()) {
          for (const status of answers) expect(status === 204 || (status >= 400 && status < 500), `delivery ${i}: ${answers.join(',')}`).toBe(true);
          // The same bytes get the same answer: a refusal is not remembered as seen.
          expect(new Set(answers).size).toBe(1);
          expect(marked(events, i), `delivery ${i} (${JSON.stringify(plan[i]?.hostility)}): ${answers.join(',')}`).toBe(answers[0] === 204 ? 1 : 0);
        }
        await receiver.close();
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('a data part nested 100,000 deep is refused with 400, again on retry; a valid delivery after it is taken', async () => {
    const receiver = pushReceiver({ auth: () => true });
    const iteration = receiver.events('t1');
    const deep = bodyOf(0, 'v1', 'data', { kind: 'deep', depth: 100_000 });
    expect((await receiver.handleRequest(delivery(deep))).status).toBe(400);
    expect((await receiver.handleRequest(delivery(deep))).status).toBe(400);
    expect((await receiver.handleRequest(delivery(bodyOf(1, 'v1', 'data', { kind: 'none' })))).status).toBe(204);
    expect((await receiver.handleRequest(delivery(v1.status('t1', 'completed', 30)))).status).toBe(204);
    const events = await take(iteration);
    expect(marked(events, 0)).toBe(0);
    expect(marked(events, 1)).toBe(1);
  });

  it('a Task snapshot with more artifacts than maxBuffered is refused (413) without ending the iteration', async () => {
    const receiver = pushReceiver({ auth: () => true, maxBuffered: 10 });
    const iteration = receiver.events('t1');
    const many = v03.task('t1', 'working', [], 1) as { artifacts: unknown[] };
    for (let k = 0; k < 20; k++) many.artifacts.push({ artifactId: `a${k}`, parts: [{ kind: 'text', text: 'x' }] });
    expect((await receiver.handleRequest(delivery(many as Record<string, unknown>))).status).toBe(413);
    expect((await receiver.handleRequest(delivery(v03.task('t1', 'completed', ['done'], 2)))).status).toBe(204);
    expect((await take(iteration)).at(-1)).toMatchObject({ done: true, state: 'completed', text: 'done' });
  });
});
