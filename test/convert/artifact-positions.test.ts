/**
 * `ArtifactPositions` (what a stream with `accumulate: false` keeps of its answer) against
 * `ArtifactTexts` (the whole text), and the default converter in both modes: the same chunks, only the
 * final event's text differs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArtifactPositions } from '../../src/convert/artifact-positions.js';
import { ArtifactTexts } from '../../src/convert/artifact-texts.js';
import type { AgentEvent } from '../../src/convert/agent-event.js';
import { defaultConverter } from '../../src/convert/default-converter.js';
import type { StreamEvent, Task } from '../../src/protocol/model.js';
import { newCtx } from './origins.js';

const piece = fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 30, maxLength: 40 }), fc.string({ minLength: 100, maxLength: 200 }));
const op = fc.record({ id: fc.constantFrom('a', 'b'), text: piece, append: fc.boolean() });

describe('ArtifactPositions', () => {
  it('random updates: the same lengths as the whole texts; a true extension is always "extends", a shorter or changed start or end always "replaced"', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), piece, fc.nat(), fc.string({ minLength: 1, maxLength: 2 }), (ops, suffix, at, junk) => {
        const texts = new ArtifactTexts();
        const positions = new ArtifactPositions();
        for (const o of ops) {
          texts.update(o.id, o.text, o.append);
          positions.update(o.id, o.text, o.append);
          expect(positions.lengthOf(o.id)).toBe(texts.lengthOf(o.id));
        }
        expect(positions.joined()).toBe('');
        for (const id of ['a', 'b', 'never']) {
          const seen = texts.textOf(id);
          if (seen === undefined) {
            expect(positions.compare(id, suffix)).toBe('unseen');
            continue;
          }
          expect(positions.compare(id, seen + suffix)).toBe('extends');
          if (seen.length > 0) expect(positions.compare(id, seen.slice(0, -1))).toBe('replaced');
          // Within the first and last 32 characters of what was seen the fingerprint is exact: the same verdict as the whole text.
          if (seen.length > 0) {
            const i = seen.length <= 64 ? at % seen.length : at % 2 === 0 ? at % 32 : seen.length - 1 - (at % 32);
            const changed = seen.slice(0, i) + (seen[i] === junk[0] ? `${junk}!` : junk) + seen.slice(i + 1);
            if (changed.length >= seen.length && changed !== seen) expect(positions.compare(id, changed + suffix)).toBe(texts.compare(id, changed + suffix));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

const ids = { taskId: 't1', contextId: 'c1' };
const artifactUpdate = (artifactId: string, text: string, append: boolean): StreamEvent => ({
  kind: 'artifact-update', ...ids, artifact: { artifactId, parts: [{ kind: 'text', text }] }, ...(append ? { append: true } : {}),
});
const task = (state: Task['status']['state'], artifacts: Record<string, string>): Task => ({
  kind: 'task', id: 't1', contextId: 'c1', status: { state },
  artifacts: Object.entries(artifacts).map(([artifactId, text]) => ({ artifactId, parts: [{ kind: 'text', text }] })),
});

function run(items: readonly StreamEvent[], accumulate: boolean): AgentEvent[] {
  const ctx = newCtx();
  if (!accumulate) ctx.accumulate = false;
  const out: AgentEvent[] = [];
  for (const item of items) out.push(...defaultConverter.convertStream(item, ctx));
  out.push(...(defaultConverter.end?.(ctx) ?? []));
  return out;
}

describe('the default converter with accumulate: false', () => {
  it('random streams of appends, replacements and growing Task snapshots: the same events except the final text and parts', () => {
    const item = fc.oneof(
      fc.record({ id: fc.constantFrom('a', 'b'), text: piece, append: fc.boolean() }).map((o) => ({ kind: 'update' as const, ...o })),
      fc.record({ extra: piece, cut: fc.boolean() }).map((o) => ({ kind: 'snapshot' as const, ...o })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.constantFrom('status', 'task'), (steps, ending) => {
        // Snapshots are built from what the stream holds so far, extended (or, with `cut`, replaced).
        const held = new Map<string, string>();
        const items: StreamEvent[] = [];
        for (const s of steps) {
          if (s.kind === 'update') {
            held.set(s.id, s.append ? (held.get(s.id) ?? '') + s.text : s.text);
            items.push(artifactUpdate(s.id, s.text, s.append));
          } else {
            for (const [id, text] of held) held.set(id, s.cut ? s.extra : text + s.extra);
            items.push(task('working', Object.fromEntries(held)));
          }
        }
        items.push(ending === 'status' ? { kind: 'status-update', ...ids, status: { state: 'completed' }, final: true } : task('completed', Object.fromEntries(held)));
        const whole = run(items, true);
        const lean = run(items, false);
        expect(lean.map((e) => ({ ...e, id: '' })).slice(0, -1)).toEqual(whole.map((e) => ({ ...e, id: '' })).slice(0, -1));
        const last = lean.at(-1);
        expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed' });
        expect(last?.text ?? '').toBe('');
        expect(last?.parts ?? []).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
