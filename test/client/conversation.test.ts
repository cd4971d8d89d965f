/**
 * Conversations against the official `@a2a-js/sdk` server (test/helpers/official-server.ts), on v1.0
 * and v0.3, JSON-RPC and REST. Its `ask` agent asks for input twice (input-required) before it
 * completes; the server records every user message the agent got (the ids it resolved, whether the
 * message continued an existing task, the referenceTaskIds) and every HTTP request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError, type AgentEvent, type ClientOptions } from '../../src/index.js';
import { startOfficialServer, type OfficialServer, type ReceivedMessage } from '../helpers/official-server.js';
import { COMBOS } from './harness.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

let seq = 0;
/** A text no other test sends (the server is shared), with the verb first. */
const say = (verb: string): string => `${verb} #${++seq}`;

/** What the agent got for the message whose text is `text`. */
function got(text: string): ReceivedMessage {
  const found = server.received.filter((r) => r.text === text);
  expect(found, `the agent got "${text}" once`).toHaveLength(1);
  return found[0] as ReceivedMessage;
}

const sends = (): number => server.requests.filter((r) => r.startsWith('POST ')).length;

const last = (events: readonly AgentEvent[]): AgentEvent | undefined => events.at(-1);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function rejection(run: () => Promise<unknown>): Promise<A2AClientError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  if (!isA2AClientError(error)) throw new Error(`expected an A2AClientError, got ${String(error)}`);
  return error;
}

describe.each(COMBOS)('conversation, v%s %s ↔ official server', (version, binding) => {
  const options: ClientOptions = { protocol: { version, binding } };
  // The v0.3 proto Message (v0.3 REST) has no referenceTaskIds field: it cannot be sent there.
  const referenced = (taskId: string): string[] => (version === '0.3' && binding === 'HTTP+JSON' ? [] : [taskId]);
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(server.baseUrl, options);
  });
  afterAll(async () => {
    await client.close();
  });

  it('invoke: two input-required turns continue one task, it completes, the next turn starts a new task referencing it', async () => {
    const chat = client.conversation();
    expect([chat.contextId, chat.taskId, chat.lastTaskId, chat.state]).toEqual([undefined, undefined, undefined, undefined]);
    const [ask, where, when, next] = [say('ask'), say('Paris'), say('Friday'), say('echo hotel')];

    expect(last(await chat.invoke(ask))).toMatchObject({ state: 'input-required', text: 'question 1 of 2: where to?' });
    const first = got(ask);
    expect(first.continued).toBe(false);
    expect(chat.toJSON()).toEqual({ version: 1, contextId: first.contextId, lastTaskId: first.taskId, state: 'input-required' });
    expect(chat.taskId).toBe(first.taskId);

    expect(last(await chat.invoke(where))).toMatchObject({ state: 'input-required', text: 'question 2 of 2: which day?' });
    expect(got(where)).toEqual({ text: where, taskId: first.taskId, contextId: first.contextId, continued: true, referenceTaskIds: [] });

    expect(last(await chat.invoke(when))).toMatchObject({ state: 'completed', text: `booked: ${where}, ${when}` });
    expect(got(when)).toMatchObject({ taskId: first.taskId, continued: true });
    expect([chat.taskId, chat.lastTaskId, chat.state, chat.contextId]).toEqual([undefined, first.taskId, 'completed', first.contextId]);

    expect(last(await chat.invoke(next))).toMatchObject({ state: 'completed', text: 'hotel #' + next.split('#')[1] });
    const fresh = got(next);
    expect(fresh).toMatchObject({ contextId: first.contextId, continued: false, referenceTaskIds: referenced(first.taskId) });
    expect(fresh.taskId).not.toBe(first.taskId);
    expect([chat.lastTaskId, chat.state, chat.taskId]).toEqual([fresh.taskId, 'completed', undefined]);
  });

  it('stream: the same conversation through stream turns, state learned from the stream as it arrives', async () => {
    const chat = client.conversation();
    const [ask, where, when, next] = [say('ask'), say('Rome'), say('Monday'), say('stream 2')];
    const seen: Array<string | undefined> = [];
    for await (const event of chat.stream(ask)) {
      seen.push(chat.lastTaskId);
      expect(event.taskId).toBe(chat.lastTaskId);
    }
    const first = got(ask);
    expect(seen.every((id) => id === first.taskId)).toBe(true);
    expect(chat.state).toBe('input-required');

    expect(last(await collect(chat.stream(where)))).toMatchObject({ state: 'input-required' });
    expect(got(where)).toMatchObject({ taskId: first.taskId, contextId: first.contextId, continued: true });
    expect(last(await collect(chat.stream(when)))).toMatchObject({ state: 'completed', text: `booked: ${where}, ${when}` });
    expect(got(when)).toMatchObject({ taskId: first.taskId, continued: true });

    const events = await collect(chat.stream(next));
    expect(last(events)).toMatchObject({ state: 'completed', done: true });
    const fresh = got(next);
    expect(fresh).toMatchObject({ contextId: first.contextId, continued: false, referenceTaskIds: referenced(first.taskId) });
    expect([chat.lastTaskId, chat.state, chat.contextId]).toEqual([fresh.taskId, 'completed', first.contextId]);
  });

  it('sendMessage and sendStreamingMessage turns carry the same ids, and return the protocol objects', async () => {
    const chat = client.conversation();
    const [ask, where, when] = [say('ask'), say('Oslo'), say('Sunday')];
    const task = await chat.sendMessage({ message: { parts: [{ kind: 'text', text: ask }] } });
    expect(task.kind === 'task' && task.status.state).toBe('input-required');
    const items = await collect(chat.sendStreamingMessage({ message: { parts: [{ kind: 'text', text: where }] } }));
    expect(items[0]?.kind).toBe('task');
    expect(got(where)).toMatchObject({ taskId: got(ask).taskId, continued: true });
    expect(chat.state).toBe('input-required');
    const done = await chat.sendMessage({ message: { parts: [{ kind: 'text', text: when }] } });
    expect(done.kind === 'task' && [done.id, done.status.state]).toEqual([got(ask).taskId, 'completed']);
    expect(chat.taskId).toBeUndefined();
  });

  it('toJSON → a new conversation on a new client continues the open task, and ends it', async () => {
    const [ask, where, when] = [say('ask'), say('Lima'), say('Tuesday')];
    const before = client.conversation();
    await before.invoke(ask);
    const stored = JSON.stringify(before);

    const other = await A2AClient.connect(server.baseUrl, options);
    try {
      const after = other.conversation(JSON.parse(stored));
      expect([after.contextId, after.taskId, after.state]).toEqual([got(ask).contextId, got(ask).taskId, 'input-required']);
      await after.invoke(where);
      expect(last(await collect(after.stream(when)))).toMatchObject({ state: 'completed', text: `booked: ${where}, ${when}` });
      expect(got(where)).toMatchObject({ taskId: got(ask).taskId, continued: true });
      expect(got(when)).toMatchObject({ taskId: got(ask).taskId, continued: true });
      // The original did not see the later turns: it still thinks the task is open.
      expect(before.state).toBe('input-required');
    } finally {
      await other.close();
    }
  });

  it('one turn at a time: a second turn rejects at once with kind unsupported and sends nothing', async () => {
    const chat = client.conversation();
    const before = sends();
    const running = chat.invoke(say('ask'));
    const refused = await rejection(() => chat.invoke(say('never sent')));
    expect([refused.kind, refused.method]).toEqual(['unsupported', 'invoke']);
    await rejection(() => chat.sendMessage({ message: { parts: [{ kind: 'text', text: 'never sent' }] } }));
    await running;
    expect(sends() - before).toBe(1);
    expect(server.received.some((r) => r.text.startsWith('never sent'))).toBe(false);
    expect(chat.state).toBe('input-required');
  });

  it('a stream holds the turn until its iteration ends — also by break — and nothing is sent meanwhile', async () => {
    const chat = client.conversation();
    const before = sends();
    const iterator = chat.stream(say('stream 3'))[Symbol.asyncIterator]();
    const firstEvent = await iterator.next();
    expect(firstEvent.done).toBe(false);
    expect((await rejection(() => chat.invoke('never sent'))).kind).toBe('unsupported');
    const second = chat.sendStreamingMessage({ message: { parts: [{ kind: 'text', text: 'never sent' }] } })[Symbol.asyncIterator]();
    expect((await rejection(() => second.next())).kind).toBe('unsupported');
    expect(sends() - before).toBe(1);

    await iterator.return?.();
    const echo = say('echo after break');
    expect(last(await chat.invoke(echo))).toMatchObject({ state: 'completed' });
    expect(sends() - before).toBe(2);
    // A stream turn that never started iterating holds nothing and sends nothing.
    chat.stream('not started');
    expect(last(await chat.invoke(say('echo still free')))).toMatchObject({ state: 'completed' });
    expect(sends() - before).toBe(3);
  });

  it('explicit ids win: another contextId gets none of the conversation’s task ids; a named taskId is sent as given', async () => {
    const chat = client.conversation();
    const ask = say('ask');
    await chat.invoke(ask);
    const open = got(ask);

    // A task of another context, waiting for input, addressed by id alone.
    const side = say('ask');
    const sideTask = await client.sendMessage({ message: { parts: [{ kind: 'text', text: side }] } });
    const sideId = sideTask.kind === 'task' ? sideTask.id : '';
    const answer = say('Kyiv');
    await chat.invoke({ parts: [{ kind: 'text', text: answer }], taskId: sideId });
    expect(got(answer)).toMatchObject({ taskId: sideId, contextId: got(side).contextId, continued: true, referenceTaskIds: [] });

    const elsewhere = say('echo elsewhere');
    const ctx = `ctx-${seq}-explicit`;
    await chat.invoke({ parts: [{ kind: 'text', text: elsewhere }], contextId: ctx });
    expect(got(elsewhere)).toMatchObject({ contextId: ctx, continued: false, referenceTaskIds: [] });
    expect(got(elsewhere).taskId).not.toBe(open.taskId);
    // The conversation follows what the agent answered.
    expect([chat.contextId, chat.lastTaskId, chat.state]).toEqual([ctx, got(elsewhere).taskId, 'completed']);
  });

  it('a failed turn: unsent or refused changes nothing; a failed task is the last task and the next turn references it', async () => {
    const chat = client.conversation();
    const ask = say('ask');
    await chat.invoke(ask);
    const saved = chat.toJSON();
    const before = sends();

    // Never reached the agent.
    const aborted = await chat.invoke('lost', { signal: AbortSignal.abort() });
    expect(last(aborted)?.error?.code).toBe('aborted');
    expect(sends()).toBe(before);
    expect(chat.toJSON()).toEqual(saved);

    // Refused by the agent (a completed task cannot take a message): an error, not an answer.
    const done = say('echo done');
    await client.sendMessage({ message: { parts: [{ kind: 'text', text: done }] } });
    const refused = await chat.invoke({ parts: [{ kind: 'text', text: 'late' }], taskId: got(done).taskId });
    expect(last(refused)?.error).toBeDefined();
    expect(chat.toJSON()).toEqual(saved);

    // The open task still continues.
    const where = say('Quito');
    await chat.invoke(where);
    expect(got(where)).toMatchObject({ taskId: got(ask).taskId, continued: true });

    // A failed task is an answer: the next turn starts a new task in the context, referencing it.
    const chat2 = client.conversation({ contextId: got(ask).contextId });
    const failing = say('fail BOOM');
    expect(last(await chat2.invoke(failing))?.error?.code).toBe(failing.slice('fail '.length));
    expect([chat2.state, chat2.lastTaskId, chat2.taskId]).toEqual(['failed', got(failing).taskId, undefined]);
    expect(got(failing).contextId).toBe(got(ask).contextId);
    const retry = say('echo again');
    await chat2.invoke(retry);
    expect(got(retry)).toMatchObject({ contextId: got(ask).contextId, continued: false, referenceTaskIds: referenced(got(failing).taskId) });
  });
});
