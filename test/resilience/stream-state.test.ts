import { describe, expect, it } from 'vitest';
import type { Part, Task } from '../../src/protocol/model.js';
import { DeliveredParts, KEPT_PARTS, newParts, StreamState } from '../../src/resilience/stream-state.js';

const text = (t: string): Part => ({ kind: 'text', text: t });
const task = (state: Task['status']['state'], parts: Part[], timestamp = 't1'): Task => ({
  kind: 'task',
  id: 'task-1',
  contextId: 'ctx',
  status: { state, timestamp },
  artifacts: [{ artifactId: 'a', parts }],
});

describe('newParts', () => {
  it.each([
    ['nothing new', [text('a')], [text('a')], []],
    ['appended parts', [text('a')], [text('a'), text('b')], [text('b')]],
    ['a grown last text part (server merged chunks)', [text('hel')], [text('hello'), text('!')], [text('lo'), text('!')]],
    ['rewritten', [text('a'), text('b')], [text('x'), text('b')], 'replace'],
    ['shrunk', [text('a'), text('b')], [text('a')], 'replace'],
  ])('%s', (_name, emitted, current, expected) => {
    expect(newParts(DeliveredParts.of(emitted), current)).toEqual(expected);
  });

  it('keeps only a bounded tail of a long artifact, and still yields just the new parts of a snapshot', () => {
    const delivered = new DeliveredParts();
    const all = Array.from({ length: 10_000 }, (_, i) => text(`p${i}`));
    for (const part of all) delivered.append([part]);
    expect(delivered.count).toBe(10_000);
    expect(delivered.tail.length).toBeLessThanOrEqual(KEPT_PARTS);
    expect(newParts(delivered, [...all, text('new')])).toEqual([text('new')]);
    expect(newParts(delivered, all)).toEqual([]);
  });

  it('detects a rewrite inside the kept tail', () => {
    const delivered = new DeliveredParts();
    const all = Array.from({ length: 1_000 }, (_, i) => text(`p${i}`));
    delivered.append(all);
    const rewritten = [...all];
    rewritten[990] = text('changed');
    expect(newParts(delivered, rewritten)).toBe('replace');
  });
});

describe('StreamState', () => {
  it('turns a snapshot into only the new artifact parts and the new status', () => {
    const s = new StreamState();
    s.live({ kind: 'task', id: 'task-1', contextId: 'ctx', status: { state: 'working', timestamp: 't0' } });
    s.live({ kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx', artifact: { artifactId: 'a', parts: [text('1')] } });
    const out = s.snapshot(task('working', [text('1'), text('2')], 't0'));
    expect(out).toEqual([{ kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx', artifact: { artifactId: 'a', parts: [text('2')] }, append: true }]);
    expect(s.done).toBe(false);
  });

  it('skips a live chunk the snapshot already delivered, once', () => {
    const s = new StreamState();
    s.live({ kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx', artifact: { artifactId: 'a', parts: [text('1')] } });
    s.snapshot(task('working', [text('1'), text('2')]));
    const dup = s.live({ kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx', artifact: { artifactId: 'a', parts: [text('2')] }, append: true });
    expect(dup).toEqual([]);
    const fresh = s.live({ kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx', artifact: { artifactId: 'a', parts: [text('2')] }, append: true });
    expect(fresh).toHaveLength(1);
  });

  it('deduplicates status updates by state + timestamp + message id and ends on terminal', () => {
    const s = new StreamState();
    const working = { kind: 'status-update' as const, taskId: 'task-1', contextId: 'ctx', status: { state: 'working' as const, timestamp: 't1' } };
    expect(s.live(working)).toHaveLength(1);
    expect(s.live(working)).toHaveLength(0);
    const out = s.snapshot(task('completed', [], 't9'));
    expect(out).toEqual([expect.objectContaining({ kind: 'status-update', status: { state: 'completed', timestamp: 't9' }, final: true })]);
    expect(s.done).toBe(true);
  });

  it('a Message ends the stream', () => {
    const s = new StreamState();
    s.live({ kind: 'message', messageId: 'm', role: 'agent', parts: [text('hi')] });
    expect(s.done).toBe(true);
  });
});
