/**
 * The event API's text follows A2A's `append` rule per artifact, and agents that stream whole Task
 * snapshots or a growing status message produce progressive text: each event carries only what is new.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/convert/agent-event.js';
import { defaultConverter } from '../../src/convert/default-converter.js';
import { artifactsText } from '../../src/convert/event-parts.js';
import type { Artifact, Part, StreamEvent, Task, TaskState } from '../../src/protocol/model.js';
import { newCtx } from './origins.js';

const ids = { taskId: 't1', contextId: 'c1' };
const text = (t: string): Part => ({ kind: 'text', text: t });
const update = (artifactId: string, t: string | Part[], append: boolean): StreamEvent => ({
  kind: 'artifact-update',
  ...ids,
  artifact: { artifactId, parts: typeof t === 'string' ? [text(t)] : t },
  ...(append ? { append: true } : {}),
});
const status = (state: TaskState, t?: string, messageId = 'm1'): StreamEvent => ({
  kind: 'status-update',
  ...ids,
  status: { state, ...(t === undefined ? {} : { message: { kind: 'message', messageId, role: 'agent', parts: [text(t)] } }) },
});
const snapshot = (state: TaskState, opts: { message?: string; artifacts?: Artifact[] } = {}): Task => ({
  kind: 'task',
  id: 't1',
  contextId: 'c1',
  status: { state, ...(opts.message === undefined ? {} : { message: { kind: 'message', messageId: 'm1', role: 'agent', parts: [text(opts.message)] } }) },
  ...(opts.artifacts ? { artifacts: opts.artifacts } : {}),
});

function run(items: StreamEvent[]): AgentEvent[] {
  const ctx = newCtx();
  const out: AgentEvent[] = [];
  for (const item of items) out.push(...defaultConverter.convertStream(item, ctx));
  out.push(...(defaultConverter.end?.(ctx) ?? []));
  return out;
}

describe('stream text follows the append rule per artifact', () => {
  it('append extends, a replacement (append false or absent) resets that artifact only; the final text is the final artifacts', () => {
    const events = run([
      snapshot('submitted'),
      update('a', 'Hel', false),
      update('a', 'lo', true),
      update('b', 'draft one', false),
      update('a', 'lo', true),
      update('b', 'v2', false),
      update('b', '', false),
      update('b', 'final', true),
      status('completed'),
    ]);
    // A chunk that replaces its artifact says so (`replace: true`), an emptying one included.
    expect(events.filter((e) => e.object === 'chat.completion.chunk').map((e) => [e.id, e.text, e.replace])).toEqual([
      ['a', 'Hel', undefined],
      ['a', 'lo', undefined],
      ['b', 'draft one', undefined],
      ['a', 'lo', undefined],
      ['b', 'v2', true],
      ['b', '', true],
      ['b', 'final', undefined],
    ]);
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: 'Hellolo\nfinal' });
  });

  it("an artifact's parts are pieces of one text: joined as they are", () => {
    const events = run([update('a', [text('to'), text('ken'), { kind: 'data', data: {} }, text('s')], false), status('completed')]);
    expect(events.map((e) => e.text)).toEqual(['tokens', 'tokens']);
  });

  it('random appends and replacements: the final text equals the final artifacts, and so does applying the chunks (replace sets, else appends)', () => {
    const op = fc.record({ id: fc.constantFrom('a', 'b', 'c'), text: fc.constantFrom('la', 'la', '', ' ', 'x\n', 'é'), append: fc.boolean() });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const server: Artifact[] = [];
        for (const o of ops) {
          const found = server.find((a) => a.artifactId === o.id);
          if (!found) server.push({ artifactId: o.id, parts: [text(o.text)] });
          else found.parts = o.append ? [...found.parts, text(o.text)] : [text(o.text)];
        }
        const events = run([...ops.map((o) => update(o.id, o.text, o.append)), status('completed', 'status text')]);
        const final = events.at(-1);
        const expected = artifactsText(server);
        expect(final?.text).toBe(expected === '' ? 'status text' : expected);
        for (const a of server) {
          let applied = '';
          for (const e of events) if (e.object === 'chat.completion.chunk' && e.id === a.artifactId) applied = e.replace ? (e.text ?? '') : applied + (e.text ?? '');
          expect(applied).toBe(a.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays linear on a long stream of two interleaved artifacts', () => {
    const items: StreamEvent[] = [];
    for (let i = 0; i < 25_000; i++) items.push(update('a', 'x', i > 0), update('b', 'y', i > 0));
    items.push(status('completed'));
    const started = performance.now();
    const events = run(items);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(events.at(-1)?.text).toBe(`${'x'.repeat(25_000)}\n${'y'.repeat(25_000)}`);
  });
});

describe('status messages: new messages whole, a growing one by its new end', () => {
  it('status-updates with distinct messages repeating a word each give the word (content never decides alone)', () => {
    const words = ['ha', 'ha', 'ha', ' ', 'the', 'then'];
    const events = run([...words.map((w, i) => status('working', w, `m${i}`)), status('completed')]);
    expect(events.filter((e) => e.object === 'chat.completion.chunk').map((e) => e.text)).toEqual(words);
  });
});

describe('progressive text from agents that resend what they have so far', () => {
  it('live Task snapshots where the agent replaced an artifact: the new text is a replacing chunk', () => {
    const art = (id: string, t: string): Artifact => ({ artifactId: id, parts: [text(t)] });
    const events = run([
      snapshot('working', { artifacts: [art('a', 'draft')] }),
      snapshot('working', { artifacts: [art('a', 'final answer')] }),
      snapshot('working', { artifacts: [art('a', 'final answer!')] }),
      snapshot('working', { artifacts: [art('a', '')] }),
      snapshot('completed', { artifacts: [art('a', 'done')] }),
    ]);
    expect(events.filter((e) => e.object === 'chat.completion.chunk').map((e) => [e.text, e.replace])).toEqual([
      ['draft', undefined],
      ['final answer', true],
      ['!', undefined],
      ['', true],
      ['done', undefined],
    ]);
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', text: 'done' });
  });

  it('a status message that grows yields only its new end; a repeat yields nothing; other text is a new message', () => {
    const events = run([status('working', 'Thin'), status('working', 'Thinking'), status('working', 'Thinking'), status('working', 'Thinking…'), status('working', 'Searching', 'm2'), status('completed', 'Searching done')]);
    expect(events.map((e) => [e.object, e.text])).toEqual([
      ['chat.completion.chunk', 'Thin'],
      ['chat.completion.chunk', 'king'],
      ['chat.completion.chunk', '…'],
      ['chat.completion.chunk', 'Searching'],
      ['chat.completion', 'Searching done'],
    ]);
  });

  it('whole Task snapshots with a growing status message: each event carries only the new text', () => {
    const events = run([
      snapshot('submitted'),
      snapshot('working', { message: 'The' }),
      snapshot('working', { message: 'The answer' }),
      snapshot('working', { message: 'The answer is 42' }),
      snapshot('completed', { message: 'The answer is 42.' }),
    ]);
    expect(events.map((e) => [e.object, e.text, e.state])).toEqual([
      ['chat.completion.chunk', 'The', 'working'],
      ['chat.completion.chunk', ' answer', 'working'],
      ['chat.completion.chunk', ' is 42', 'working'],
      ['chat.completion', 'The answer is 42.', 'completed'],
    ]);
  });

  it('whole Task snapshots with growing artifacts: only the new text, by position; a shortened artifact is sent whole', () => {
    const art = (id: string, ...parts: string[]): Artifact => ({ artifactId: id, parts: parts.map(text) });
    const events = run([
      snapshot('working', { artifacts: [art('a', 'la')] }),
      snapshot('working', { artifacts: [art('a', 'la', 'la')] }),
      snapshot('working', { artifacts: [art('a', 'la', 'la'), art('b', 'long draft')] }),
      snapshot('working', { artifacts: [art('a', 'la', 'la', 'la'), art('b', 'v2')] }),
      snapshot('completed', { artifacts: [art('a', 'la', 'la', 'la', '!'), art('b', 'v2')] }),
    ]);
    expect(events.map((e) => [e.object, e.text])).toEqual([
      ['chat.completion.chunk', 'la'],
      ['chat.completion.chunk', 'la'],
      ['chat.completion.chunk', 'long draft'],
      ['chat.completion.chunk', 'la'],
      ['chat.completion.chunk', 'v2'],
      ['chat.completion.chunk', '!'],
      ['chat.completion', 'lalala!\nv2'],
    ]);
  });
});
