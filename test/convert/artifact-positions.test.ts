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

function run(items: readonly StreamEvent[], accumulate: boolean | number): AgentEvent[] {
  const ctx = newCtx();
  ctx.accumulate = accumulate;
  const out: AgentEvent[] = [];
  for (const item of items) out.push(...defaultConverter.convertStream(item, ctx));
  out.push(...(defaultConverter.end?.(ctx) ?? []));
  return out;
}

/** A random step of a stream: an artifact update, or a Task snapshot of what it holds, extended (or, with `cut`, replaced). */
const step = fc.oneof(
  fc.record({ id: fc.constantFrom('a', 'b'), text: piece, append: fc.boolean() }).map((o) => ({ kind: 'update' as const, ...o })),
  fc.record({ extra: piece, cut: fc.boolean() }).map((o) => ({ kind: 'snapshot' as const, ...o })),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/**
 * The stream of `steps` ended by a completed status-update or Task, and each artifact's text at the end;
 * `onSet` sees the texts after each single artifact's change, in the order the converter applies them.
 */
function streamOf(steps: readonly Step[], ending: 'status' | 'task', onSet: (held: ReadonlyMap<string, string>) => void = () => undefined): { items: StreamEvent[]; held: Map<string, string> } {
  const held = new Map<string, string>();
  const set = (id: string, text: string): void => {
    held.set(id, text);
    onSet(held);
  };
  const items: StreamEvent[] = [];
  for (const s of steps) {
    if (s.kind === 'update') {
      set(s.id, s.append ? (held.get(s.id) ?? '') + s.text : s.text);
      items.push(artifactUpdate(s.id, s.text, s.append));
    } else {
      for (const [id, text] of [...held]) set(id, s.cut ? s.extra : text + s.extra);
      items.push(task('working', Object.fromEntries(held)));
    }
  }
  items.push(ending === 'status' ? { kind: 'status-update', ...ids, status: { state: 'completed' }, final: true } : task('completed', Object.fromEntries(held)));
  return { items, held };
}

describe('the default converter with accumulate: false', () => {
  it('random streams of appends, replacements and growing Task snapshots: the same events except the final text and parts', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.constantFrom('status' as const, 'task' as const), (steps, ending) => {
        const { items, held } = streamOf(steps, ending);
        const whole = run(items, true);
        const lean = run(items, false);
        expect(lean.map((e) => ({ ...e, id: '' })).slice(0, -1)).toEqual(whole.map((e) => ({ ...e, id: '' })).slice(0, -1));
        const last = lean.at(-1);
        expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed' });
        expect(last?.text ?? '').toBe('');
        expect(last?.parts ?? []).toEqual([]);
        expect(last?.answerOmitted).toBe([...held.values()].some((t) => t !== '') ? true : undefined);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the default converter with a limit in characters', () => {
  it('random streams and limits: the same chunks as with no limit; the final event is the unlimited one while the answer never outgrew the limit, else without it', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.constantFrom('status' as const, 'task' as const), fc.nat({ max: 2_000 }), (steps, ending, limit) => {
        // The reference: whether the characters held after any single artifact's change passed the limit
        // (a limit of 0 is `false`: nothing is kept, from the start).
        let outgrew = limit === 0;
        const { items, held } = streamOf(steps, ending, (texts) => {
          let chars = 0;
          for (const t of texts.values()) chars += t.length;
          if (chars > limit) outgrew = true;
        });
        const whole = run(items, true);
        const bounded = run(items, limit);
        const noId = (e: AgentEvent | undefined): unknown => (e === undefined ? e : { ...e, id: '' });
        expect(bounded.map(noId).slice(0, -1)).toEqual(whole.map(noId).slice(0, -1));
        const last = bounded.at(-1);
        if (!outgrew) {
          expect(noId(last)).toEqual(noId(whole.at(-1)));
          return;
        }
        // Past the limit not even a completed Task's own answer is carried: the status message's text (none here).
        expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: '' });
        expect(last?.parts ?? []).toEqual([]);
        expect(last?.answerOmitted).toBe([...held.values()].some((t) => t !== '') ? true : undefined);
      }),
      { numRuns: 400 },
    );
  });

  it('letting go keeps the positions: a snapshot after it is reconciled as with the whole text', () => {
    const long = 'x'.repeat(100);
    const items: StreamEvent[] = [artifactUpdate('a', long, false), artifactUpdate('a', 'tail', true), task('working', { a: `${long}tail more` }), task('completed', { a: 'new' })];
    const whole = run(items, true);
    const bounded = run(items, 50);
    const noId = (e: AgentEvent): AgentEvent => ({ ...e, id: '' });
    expect(bounded.slice(0, -1).map(noId)).toEqual(whole.slice(0, -1).map(noId));
    expect(bounded.map((e) => [e.object, e.text, e.replace ?? false])).toEqual([
      ['chat.completion.chunk', long, false],
      ['chat.completion.chunk', 'tail', false],
      ['chat.completion.chunk', ' more', false],
      ['chat.completion.chunk', 'new', true],
      ['chat.completion', '', false],
    ]);
    expect(whole.at(-1)?.text).toBe('new');
    expect(bounded.at(-1)?.answerOmitted).toBe(true);
  });
});

describe('ArtifactPositions.of', () => {
  it('takes the lengths, characters and fingerprints of the kept texts', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 100 }), piece, (ops, suffix) => {
        const texts = new ArtifactTexts();
        const positions = new ArtifactPositions();
        for (const o of ops) {
          texts.update(o.id, o.text, o.append);
          positions.update(o.id, o.text, o.append);
        }
        const from = ArtifactPositions.of(texts);
        expect(from.chars).toBe(texts.chars);
        expect(positions.chars).toBe(texts.chars);
        expect(texts.chars).toBe(['a', 'b'].reduce((n, id) => n + (texts.lengthOf(id) ?? 0), 0));
        for (const id of ['a', 'b', 'never']) {
          expect(from.lengthOf(id)).toBe(texts.lengthOf(id));
          const seen = texts.textOf(id);
          if (seen !== undefined) expect(from.compare(id, seen + suffix)).toBe(positions.compare(id, seen + suffix));
          else expect(from.compare(id, suffix)).toBe('unseen');
        }
      }),
      { numRuns: 200 },
    );
  });
});
