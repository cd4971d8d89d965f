import { describe, expect, it } from 'vitest';
import type { Part, StreamEvent, Task, TaskStatus } from '../../src/protocol/model.js';
import { partsAfter, unitsOf } from '../../src/resilience/delivered-artifact.js';
import { StreamState } from '../../src/resilience/stream-state.js';

/** What a stream delivers for a live event: the event itself, recorded in `state`. */
const delivered = (state: StreamState, event: StreamEvent): StreamEvent[] => (state.accept(event), [event]);

const text = (t: string): Part => ({ kind: 'text', text: t });
const data = (n: number): Part => ({ kind: 'data', data: { n } });
const ids = { taskId: 'task-1', contextId: 'ctx' };
const chunk = (parts: Part[], append = true, artifactId = 'a'): StreamEvent => ({ kind: 'artifact-update', ...ids, artifact: { artifactId, parts }, append });
const task = (status: TaskStatus, artifacts: Task['artifacts'] = []): Task => ({ kind: 'task', id: 'task-1', contextId: 'ctx', status, artifacts });
const working: TaskStatus = { state: 'working', timestamp: 't1' };

describe('partsAfter (position, never content)', () => {
  it.each<[string, Part[], number, Part[]]>([
    ['nothing delivered', [text('ab'), text('cd')], 0, [text('ab'), text('cd')]],
    ['whole parts delivered', [text('ab'), text('cd'), text('ef')], 4, [text('ef')]],
    ['inside a text part: its unseen end, then later parts', [text('hello'), data(1), text('!')], 3, [text('lo'), data(1), text('!')]],
    ['a merged part that grew', [text('la la la')], 5, [text(' la')]],
    ['a non-text part counts as one unit', [data(1), data(2), text('x')], 1, [data(2), text('x')]],
    ['everything delivered', [text('ab'), data(1)], 3, []],
  ])('%s', (_name, parts, units, expected) => {
    expect(partsAfter(parts, units)).toEqual(expected);
    expect(unitsOf(expected) + units).toBe(unitsOf(parts));
  });

  it('keeps the other fields of a partly delivered text part', () => {
    expect(partsAfter([{ kind: 'text', text: 'abc', mediaType: 'text/markdown', metadata: { k: 1 } }], 1)).toEqual([
      { kind: 'text', text: 'bc', mediaType: 'text/markdown', metadata: { k: 1 } },
    ]);
  });
});

describe('StreamState', () => {
  it('delivers every live chunk, repeated identical tokens included, also right after a snapshot', () => {
    const s = new StreamState();
    s.accept(task(working));
    for (let i = 0; i < 3; i++) expect(delivered(s, chunk([text('la')], i > 0))).toHaveLength(1);
    // Dropped after three "la"; the server had produced a fourth before the snapshot.
    const out = s.snapshot(task(working, [{ artifactId: 'a', parts: [text('la'), text('la'), text('la'), text('la')] }]));
    expect(out).toEqual([{ kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [text('la')] }, append: true }]);
    // The next live "la" is new: the spec sends later updates after the snapshot.
    expect(delivered(s, chunk([text('la')]))).toHaveLength(1);
    expect(s.snapshot(task(working, [{ artifactId: 'a', parts: [text('lalalalala')] }]))).toEqual([]);
  });

  it('reconciles with a server that merges appended text into one part', () => {
    const s = new StreamState();
    s.accept(task(working));
    s.accept(chunk([text('Hel')], false));
    s.accept(chunk([text('lo')]));
    const out = s.snapshot(task(working, [{ artifactId: 'a', parts: [text('Hello, world')] }]));
    expect(out).toEqual([{ kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [text(', world')] }, append: true }]);
  });

  it('an artifact never seen is delivered whole; one the server shortened is replaced once; nothing is re-sent', () => {
    const s = new StreamState();
    s.accept(task(working));
    s.accept(chunk([text('long answer')], false, 'a'));
    const snap = task(working, [
      { artifactId: 'a', parts: [text('short')] },
      { artifactId: 'b', name: 'new', parts: [text('b1'), data(2)] },
    ]);
    expect(s.snapshot(snap)).toEqual([
      { kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [text('short')] }, append: false },
      { kind: 'artifact-update', ...ids, artifact: { artifactId: 'b', name: 'new', parts: [text('b1'), data(2)] }, append: false },
    ]);
    expect(s.snapshot(snap)).toEqual([]);
  });

  it('a replace resets the position: a later snapshot sends only what follows the replacement', () => {
    const s = new StreamState();
    s.accept(task(working));
    s.accept(chunk([text('first draft, long')], false));
    s.accept(chunk([text('v2')], false));
    expect(s.snapshot(task(working, [{ artifactId: 'a', parts: [text('v2'), text('+')] }]))).toEqual([
      { kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [text('+')] }, append: true },
    ]);
  });

  it.each<[string, string, string]>([
    ['replaced by a longer text', 'Searching...', 'Found 3 results: A, B, C'],
    ['replaced by one of the same length', 'draft', 'final'],
    ['replaced by one whose units are as many (a surrogate pair)', 'xx', '\u{1F600}'],
    ['replaced at its end only, longer', 'The answer is 41', 'The answer is 42, surely'],
  ])('an artifact %s while the client was away is sent whole once (append: false), not as an extension', (_name, before, after) => {
    const s = new StreamState();
    s.accept(task(working));
    s.accept(chunk([text(before)], false));
    const snap = task(working, [{ artifactId: 'a', parts: [text(after)] }]);
    expect(s.snapshot(snap)).toEqual([{ kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [text(after)] }, append: false }]);
    expect(s.snapshot(snap)).toEqual([]);
    expect(s.snapshot(task(working, [{ artifactId: 'a', parts: [text(after), text(' more')] }]))).toEqual([
      { kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [text(' more')] }, append: true },
    ]);
  });

  it('a long artifact extended while away is an extension, however its middle chunks were split', () => {
    const s = new StreamState();
    s.accept(task(working));
    const tokens = Array.from({ length: 200 }, (_, i) => `tok${i % 7} `);
    s.accept(chunk([text(tokens[0] as string)], false));
    for (const t of tokens.slice(1)) s.accept(chunk([text(t)]));
    const snap = task(working, [{ artifactId: 'a', parts: [text(tokens.join('')), data(1), text('end')] }]);
    expect(s.snapshot(snap)).toEqual([{ kind: 'artifact-update', ...ids, artifact: { artifactId: 'a', parts: [data(1), text('end')] }, append: true }]);
  });

  it('a snapshot status identical to the last delivered one is not re-sent (a new timestamp alone is no news); a grown one is', () => {
    const s = new StreamState();
    const message = (t: string): TaskStatus['message'] => ({ kind: 'message', messageId: 'm1', role: 'agent', parts: [text(t)] });
    s.accept({ kind: 'status-update', ...ids, status: { state: 'working', message: message('thinking') } });
    expect(s.snapshot(task({ state: 'working', message: message('thinking') }))).toEqual([]);
    const grown = s.snapshot(task({ state: 'working', message: message('thinking harder') }));
    expect(grown).toEqual([expect.objectContaining({ kind: 'status-update', status: { state: 'working', message: message('thinking harder') }, final: false })]);
    expect(s.snapshot(task({ state: 'working', timestamp: 't2', message: message('thinking harder') }))).toEqual([]);
    expect(s.done).toBe(false);
    expect(s.snapshot(task({ state: 'completed', timestamp: 't3' }))).toEqual([expect.objectContaining({ kind: 'status-update', final: true })]);
    expect(s.done).toBe(true);
  });

  it('never drops a live status, even one identical to the previous', () => {
    const s = new StreamState();
    const update: StreamEvent = { kind: 'status-update', ...ids, status: working };
    expect(delivered(s, update)).toEqual([update]);
    expect(delivered(s, update)).toEqual([update]);
    expect(s.delivered).toBe(2);
  });

  it('a Message, a final update or an interrupted state ends the stream', () => {
    const m = new StreamState();
    m.accept({ kind: 'message', messageId: 'm', role: 'agent', parts: [text('hi')] });
    expect(m.done).toBe(true);
    const i = new StreamState();
    i.accept({ kind: 'status-update', ...ids, status: { state: 'input-required' } });
    expect(i.done).toBe(true);
  });
});

describe('StreamState.progress: what moved on, by position (resume rounds count on it)', () => {
  const moved = (s: StreamState, step: () => unknown): boolean => {
    const before = s.progress;
    step();
    return s.progress !== before;
  };

  it('moves on for a new task, a new status, appended units, a replaced artifact that differs, the end', () => {
    const s = new StreamState();
    expect(moved(s, () => s.accept(task(working)))).toBe(true);
    expect(moved(s, () => s.accept(chunk([text('la')], false)))).toBe(true);
    expect(moved(s, () => s.accept(chunk([text('la')])))).toBe(true);
    expect(moved(s, () => s.accept(chunk([text('other')], false)))).toBe(true);
    expect(moved(s, () => s.accept({ kind: 'status-update', ...ids, status: { state: 'input-required' } }))).toBe(true);
    expect(s.done).toBe(true);
  });

  it('stays for what repeats the known: the same Task again, the same status, an empty append, the same artifact replaced by itself', () => {
    const s = new StreamState();
    s.accept(task(working, [{ artifactId: 'a', parts: [text('abc')] }]));
    expect(moved(s, () => s.accept(task(working, [{ artifactId: 'a', parts: [text('abc')] }])))).toBe(false);
    expect(moved(s, () => s.accept({ kind: 'status-update', ...ids, status: { state: 'working', timestamp: 'later' } }))).toBe(false);
    expect(moved(s, () => s.accept(chunk([text('')])))).toBe(false);
    expect(moved(s, () => s.accept(chunk([text('abc')], false)))).toBe(false);
  });

  it('a snapshot moves it on only when it yields something new', () => {
    const s = new StreamState();
    s.accept(task(working));
    s.accept(chunk([text('ab')], false));
    expect(moved(s, () => expect(s.snapshot(task(working, [{ artifactId: 'a', parts: [text('ab')] }]))).toEqual([]))).toBe(false);
    expect(moved(s, () => expect(s.snapshot(task(working, [{ artifactId: 'a', parts: [text('abc')] }]))).toHaveLength(1))).toBe(true);
    expect(moved(s, () => s.snapshot(task({ state: 'completed' }, [{ artifactId: 'a', parts: [text('abc')] }])))).toBe(true);
  });
});

describe('StreamState.take (one batch of a live source)', () => {
  const completed = (): StreamEvent => ({ kind: 'status-update', ...ids, status: { state: 'completed' }, final: true });

  it('a live batch is delivered as it came (the same array), and nothing after the terminal event', () => {
    const s = new StreamState();
    const batch = [task(working), chunk([text('a')], false)];
    expect(s.take(batch, false)).toBe(batch);
    const ending = [chunk([text('b')]), completed(), chunk([text('late')])];
    expect(s.take(ending, false)).toEqual(ending.slice(0, 2));
    expect(s.done).toBe(true);
  });

  it('a resubscribe’s Task snapshot becomes only what the caller has not seen, then the live events follow', () => {
    const s = new StreamState();
    s.take([task(working), chunk([text('ab')], false)], false);
    const snapshot = task(working, [{ artifactId: 'a', parts: [text('abcd')] }]);
    const live = chunk([text('e')]);
    expect(s.take([snapshot, live], true)).toEqual([chunk([text('cd')]), live]);
  });

  it('a resubscribe that does not start with its snapshot: undefined (poll instead); an empty batch is no answer yet', () => {
    const s = new StreamState();
    s.take([task(working)], false);
    expect(s.take([chunk([text('x')])], true)).toBeUndefined();
    expect(s.take([], true)).toEqual([]);
  });
});
