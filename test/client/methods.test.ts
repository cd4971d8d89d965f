import { describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type StreamEvent, type Task } from '../../src/index.js';
import { mockAgent, replyTask, replyText, type MockAgent, type Scenario } from '../../mocks/index.js';
import { UUID, WAY_COMBOS, collect, receivedMessage, rejection, uniqueName, useHarness } from './harness.js';

const h = useHarness();

/** States and kinds of stream events, to compare whole streams exactly. */
const shape = (events: StreamEvent[]): string[] =>
  events.map((e) => (e.kind === 'task' || e.kind === 'status-update' ? `${e.kind}:${e.status.state}` : e.kind));

describe.each(WAY_COMBOS)('A2AClient protocol methods (%s, v%s %s)', (way, version, binding) => {
  async function setup(options: { streaming?: boolean } = {}): Promise<{ agent: MockAgent; client: A2AClient; url: string }> {
    const agent = mockAgent({ name: uniqueName('methods'), version, binding, ...options });
    const served = await h.agent(way, agent);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    return { agent, client, url: served.interfaceUrl };
  }

  /** A task the mock knows, still working. */
  function storeWorkingTask(agent: MockAgent): Task {
    const task: Task = { kind: 'task', id: 'task-w1', contextId: 'ctx-w1', status: { state: 'working' } };
    agent.store.put(task);
    return task;
  }

  it('close() can be called twice (and concurrently): the second call is the same promise, no error', async () => {
    const { client } = await setup();
    await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    const first = client.close();
    const second = client.close();
    expect(second).toBe(first);
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('negotiates the card interface', async () => {
    const { client, url } = await setup();
    expect(client.protocol).toEqual({ version, binding, url });
    expect(client.name).toMatch(/^methods-/);
  });

  it('sendMessage resolves with the Task the agent answers', async () => {
    const { agent, client } = await setup();
    const result = await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });
    const stored = agent.store.list();
    expect(stored).toHaveLength(1);
    expect(result.kind).toBe('task');
    if (result.kind !== 'task') return;
    expect(result.id).toBe(stored[0]?.id);
    expect(result.contextId).toBe(stored[0]?.contextId);
    expect(result.status.state).toBe('completed');
    expect(result.artifacts).toHaveLength(1);
    expect(result.artifacts?.[0]?.artifactId).toBe('artifact-1');
    expect(result.artifacts?.[0]?.parts).toEqual([expect.objectContaining({ kind: 'text', text: 'echo: hi' })]);
    expect(agent.calls.map((c) => c.method)).toEqual(['sendMessage']);
  });

  it('sendMessage resolves with the Message the agent answers', async () => {
    const { agent, client } = await setup();
    agent.reply(replyText('hello'));
    const result = await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }], contextId: 'ctx-given' } });
    expect(result.kind).toBe('message');
    if (result.kind !== 'message') return;
    expect(result.role).toBe('agent');
    expect(result.contextId).toBe('ctx-given');
    expect(result.parts).toEqual([expect.objectContaining({ kind: 'text', text: 'hello' })]);
    expect(agent.store.list()).toEqual([]);
  });

  it('generates a UUID messageId when absent (a new one per send) and defaults role to user', async () => {
    const { agent, client } = await setup();
    await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'one' }] } });
    await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'two' }] } });
    const [first, second] = agent.calls.map((c) => receivedMessage(c));
    expect(first?.messageId).toMatch(UUID);
    expect(second?.messageId).toMatch(UUID);
    expect(first?.messageId).not.toBe(second?.messageId);
    expect(first?.role).toBe('user');
    expect(first?.text).toBe('one');
  });

  it('keeps a given messageId and role', async () => {
    const { agent, client } = await setup();
    await client.sendMessage({ message: { messageId: 'my-message-1', role: 'agent', parts: [{ kind: 'text', text: 'x' }] } });
    expect(receivedMessage(agent.calls[0])).toEqual({ messageId: 'my-message-1', role: 'agent', text: 'x' });
  });

  it('sendStreamingMessage yields the snapshot and every update, in order', async () => {
    const { agent, client } = await setup();
    const events = await collect(client.sendStreamingMessage({ message: { parts: [{ kind: 'text', text: 'yo' }] } }));
    expect(shape(events)).toEqual(['task:submitted', 'status-update:working', 'artifact-update', 'status-update:completed']);
    const artifact = events[2];
    expect(artifact?.kind === 'artifact-update' ? artifact.artifact.parts : undefined).toEqual([
      expect.objectContaining({ kind: 'text', text: 'echo: yo' }),
    ]);
    const taskId = events[0]?.kind === 'task' ? events[0].id : undefined;
    for (const e of events.slice(1)) expect(e.kind !== 'task' && e.kind !== 'message' ? e.taskId : undefined).toBe(taskId);
    expect(agent.calls.map((c) => c.method)).toEqual(['sendStreamingMessage']);
    expect(receivedMessage(agent.calls[0]).messageId).toMatch(UUID);
  });

  it('sendStreamingMessage on a card without streaming yields exactly the single result of a send', async () => {
    const { agent, client } = await setup({ streaming: false });
    expect(client.card.capabilities.streaming).toBe(false);
    const events = await collect(client.sendStreamingMessage({ message: { parts: [{ kind: 'text', text: 'solo' }] } }));
    expect(events).toHaveLength(1);
    expect(shape(events)).toEqual(['task:completed']);
    expect(events[0]?.kind === 'task' ? events[0].id : undefined).toBe(agent.store.list()[0]?.id);
    expect(agent.calls.map((c) => c.method)).toEqual(['sendMessage']);
  });

  it('getTask reads the task by id', async () => {
    const { agent, client } = await setup();
    storeWorkingTask(agent);
    const task = await client.getTask({ id: 'task-w1' });
    expect(task).toMatchObject({ kind: 'task', id: 'task-w1', contextId: 'ctx-w1', status: { state: 'working' } });
    expect(agent.calls.map((c) => [c.method, c.params])).toEqual([['getTask', expect.objectContaining({ id: 'task-w1' })]]);
  });

  it('getTask of an unknown task fails with TaskNotFound', async () => {
    const { client } = await setup();
    const error = await rejection(client.getTask({ id: 'task-missing' }));
    expect(isA2AClientError(error)).toBe(true);
    if (!isA2AClientError(error)) return;
    expect(error.kind).toBe(binding === 'JSONRPC' ? 'json-rpc' : 'http');
    expect(error.method).toBe('getTask');
    if (binding === 'JSONRPC') expect([error.code, error.a2aName]).toEqual([-32001, 'TaskNotFound']);
    else expect(error.status).toBe(404);
  });

  it('listTasks lists tasks on v1.0 and is unsupported on v0.3 without calling the agent', async () => {
    const { agent, client } = await setup();
    storeWorkingTask(agent);
    if (version === '1.0') {
      const list = await client.listTasks({});
      expect(list.tasks.map((t) => [t.id, t.status.state])).toEqual([['task-w1', 'working']]);
      expect(list.totalSize).toBe(1);
      expect(agent.calls.map((c) => c.method)).toEqual(['listTasks']);
      return;
    }
    const error = await rejection(client.listTasks({}));
    expect(isA2AClientError(error) ? [error.kind, error.method, error.retryable] : error).toEqual(['unsupported', 'listTasks', false]);
    expect(agent.calls).toEqual([]);
  });

  it('cancelTask resolves with the canceled task', async () => {
    const { agent, client } = await setup();
    storeWorkingTask(agent);
    const task = await client.cancelTask({ id: 'task-w1' });
    expect(task).toMatchObject({ kind: 'task', id: 'task-w1', contextId: 'ctx-w1', status: { state: 'canceled' } });
    expect(agent.store.get('task-w1')?.status.state).toBe('canceled');
    expect(agent.calls.map((c) => c.method)).toEqual(['cancelTask']);
  });

  it('subscribeToTask yields the snapshot, then the updates until the terminal state', async () => {
    const { agent, client } = await setup();
    const task = storeWorkingTask(agent);
    const follow: Scenario = () => ({
      type: 'stream',
      events: [task, { kind: 'status-update', taskId: task.id, contextId: task.contextId, status: { state: 'completed' } }],
    });
    agent.once('subscribeToTask', follow);
    const events = await collect(client.subscribeToTask({ id: task.id }));
    expect(shape(events)).toEqual(['task:working', 'status-update:completed']);
    expect(events[0]?.kind === 'task' ? events[0].id : undefined).toBe('task-w1');
    expect(agent.calls.map((c) => [c.method, c.params])).toEqual([['subscribeToTask', expect.objectContaining({ id: 'task-w1' })]]);
  });

  it('creates, reads, lists and deletes push-notification configs', async () => {
    const { agent, client } = await setup();
    storeWorkingTask(agent);
    const config = { id: 'cfg-1', url: 'http://127.0.0.1:9/hook', token: 'tok-1' };
    const created = await client.createTaskPushNotificationConfig({ taskId: 'task-w1', config });
    expect(created).toMatchObject({ taskId: 'task-w1', config });
    const read = await client.getTaskPushNotificationConfig({ taskId: 'task-w1', configId: 'cfg-1' });
    expect(read).toMatchObject({ taskId: 'task-w1', config });
    const listed = await client.listTaskPushNotificationConfig({ taskId: 'task-w1' });
    expect(listed.map((c) => [c.taskId, c.config])).toEqual([['task-w1', config]]);
    await expect(client.deleteTaskPushNotificationConfig({ taskId: 'task-w1', configId: 'cfg-1' })).resolves.toBeUndefined();
    expect(await client.listTaskPushNotificationConfig({ taskId: 'task-w1' })).toEqual([]);
    expect(agent.calls.map((c) => c.method)).toEqual([
      'createTaskPushNotificationConfig',
      'getTaskPushNotificationConfig',
      'listTaskPushNotificationConfig',
      'deleteTaskPushNotificationConfig',
      'listTaskPushNotificationConfig',
    ]);
  });

  it('getExtendedAgentCard resolves with the extended card', async () => {
    const { agent, client, url } = await setup();
    const card = await client.getExtendedAgentCard();
    expect(card.name).toBe(agent.name);
    expect(card.description).toBe(`${agent.name} (extended)`);
    expect(card.interfaces).toEqual([{ url, binding, version }]);
    expect(agent.calls.map((c) => c.method)).toEqual(['getExtendedAgentCard']);
  });
});

describe.each(WAY_COMBOS)('A2AClient from a card you already have (%s, v%s %s)', (way, version, binding) => {
  it('new A2AClient(wireCard) talks to the interface the card names', async () => {
    const agent = mockAgent({ name: uniqueName('fromcard'), version, binding });
    const served = await h.agent(way, agent);
    const client = new A2AClient(agent.card, served.options);
    h.defer(() => client.close());
    expect(client.protocol).toEqual({ version, binding, url: served.interfaceUrl });
    expect(client.name).toBe(agent.name);
    agent.reply(replyTask({ artifacts: ['done'] }));
    const result = await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'x' }] } });
    expect(result.kind === 'task' ? result.status.state : result.kind).toBe('completed');
    // A client made from another client's normalised card works the same.
    const again = new A2AClient(client.card, served.options);
    h.defer(() => again.close());
    expect(again.protocol).toEqual(client.protocol);
    await again.sendMessage({ message: { parts: [{ kind: 'text', text: 'y' }] } });
    expect(agent.calls.map((c) => c.method)).toEqual(['sendMessage', 'sendMessage']);
    // Such a client has no URL to refresh its card from.
    const error = await rejection(client.refreshCard());
    expect(isA2AClientError(error) ? error.kind : error).toBe('unsupported');
  });
});
