/**
 * Property of stream resumption: for random artifact streams (appends and replacements over several
 * artifacts, repeated identical chunks, empty texts, multi-part and non-text chunks), a random drop
 * point, events the server produced while the client was away, a Task snapshot of the server's true
 * state (kept as the official SDKs do — one part per appended chunk — or with appended text merged
 * into one part) and then the rest of the live stream — replacements made during the gap included —
 * what the caller rebuilds from the delivered
 * events equals the server's final artifacts, and an artifact that was only ever extended receives
 * every character exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Artifact, Part, StreamEvent, Task } from '../../src/protocol/model.js';
import { StreamState } from '../../src/resilience/stream-state.js';

/** What a stream delivers for a live event: the event itself, recorded in `state`. */
const live = (state: StreamState, event: StreamEvent): StreamEvent[] => (state.accept(event), [event]);

interface Op {
  artifactId: string;
  append: boolean;
  parts: Part[];
}

const ids = { taskId: 't', contextId: 'c' };
const partArb: fc.Arbitrary<Part> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('la', 'la', ' ', '', '\n', 'ab', 'é', '🙂').map((t): Part => ({ kind: 'text', text: t })) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }).map((t): Part => ({ kind: 'text', text: t })) },
  { weight: 1, arbitrary: fc.nat(3).map((n): Part => ({ kind: 'data', data: { n } })) },
);
const opArb: fc.Arbitrary<Op> = fc.record({
  artifactId: fc.constantFrom('a', 'b', 'c'),
  append: fc.boolean(),
  parts: fc.array(partArb, { minLength: 1, maxLength: 3 }),
});

/** The reference: A2A's append rule over a list of artifacts (a replace keeps the artifact's place). */
function apply(artifacts: Artifact[], op: Op, merge: boolean): void {
  const found = artifacts.find((a) => a.artifactId === op.artifactId);
  if (!found) {
    artifacts.push({ artifactId: op.artifactId, parts: [...op.parts] });
    return;
  }
  if (!op.append) {
    found.parts = [...op.parts];
    return;
  }
  for (const part of op.parts) {
    const last = found.parts.at(-1);
    if (merge && last?.kind === 'text' && part.kind === 'text') found.parts[found.parts.length - 1] = { kind: 'text', text: last.text + part.text };
    else found.parts.push(part);
  }
}

/** Content of parts as a comparable string: text as is, any other part as a marker. */
function render(parts: readonly Part[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : `\u0000${JSON.stringify(p)}\u0000`)).join('');
}

const units = (parts: readonly Part[]): number => parts.reduce((n, p) => n + (p.kind === 'text' ? p.text.length : 1), 0);

function updateOf(op: Op): StreamEvent {
  return { kind: 'artifact-update', ...ids, artifact: { artifactId: op.artifactId, parts: op.parts }, append: op.append };
}

describe('StreamState reconciliation (property)', () => {
  it('the caller rebuilds exactly the server final artifacts; an only-extended artifact gets each character once', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 24 }),
        fc.nat(),
        fc.nat(5),
        fc.boolean(),
        (ops, dropSeed, lost, merge) => {
          const drop = dropSeed % (ops.length + 1);
          const resumeAt = Math.min(ops.length, drop + lost);
          // What the client saw before the drop, and the server's state when the snapshot is taken.
          const seen: Artifact[] = [];
          for (const op of ops.slice(0, drop)) apply(seen, op, false);
          const server: Artifact[] = [];
          for (const op of ops.slice(0, resumeAt)) apply(server, op, merge);
          // A replacement during the gap is told from an extension by the first and last 32 units
          // delivered: exactly, while what was delivered is at most 64 units (a longer artifact whose
          // replacement kept both ends is the documented blind spot).
          for (const op of ops.slice(drop, resumeAt)) {
            const before = seen.find((a) => a.artifactId === op.artifactId);
            const after = server.find((a) => a.artifactId === op.artifactId);
            if (!op.append && before && after) fc.pre(units(before.parts) <= 64 || render(after.parts).startsWith(render(before.parts)));
          }
          const snapshot: Task = { kind: 'task', id: 't', contextId: 'c', status: { state: 'working' }, artifacts: structuredClone(server) };
          for (const op of ops.slice(resumeAt)) apply(server, op, merge);

          const state = new StreamState();
          const delivered: StreamEvent[] = [{ kind: 'task', id: 't', contextId: 'c', status: { state: 'submitted' } }];
          state.accept(delivered[0] as StreamEvent);
          for (const op of ops.slice(0, drop)) delivered.push(...live(state, updateOf(op)));
          delivered.push(...state.snapshot(snapshot));
          for (const op of ops.slice(resumeAt)) delivered.push(...live(state, updateOf(op)));

          // The caller applies what it received with the append rule.
          const rebuilt: Artifact[] = [];
          const received = new Map<string, number>();
          for (const e of delivered) {
            if (e.kind !== 'artifact-update') continue;
            apply(rebuilt, { artifactId: e.artifact.artifactId, append: e.append === true, parts: e.artifact.parts }, false);
            received.set(e.artifact.artifactId, (received.get(e.artifact.artifactId) ?? 0) + units(e.artifact.parts));
          }
          expect(rebuilt.map((a) => a.artifactId).sort()).toEqual(server.map((a) => a.artifactId).sort());
          for (const a of server) expect(render(rebuilt.find((r) => r.artifactId === a.artifactId)?.parts ?? [])).toBe(render(a.parts));
          // Artifacts created once and then only appended to: no character repeated, none lost.
          for (const a of server) {
            const created = ops.filter((op) => op.artifactId === a.artifactId);
            if (created.slice(1).every((op) => op.append)) expect(received.get(a.artifactId)).toBe(units(a.parts));
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
