import { describe, expect, it } from 'vitest';
import { A2AClient, isTerminalError, type AgentEvent, type AgentInput } from '../../src/index.js';
import { failedTask, mockAgent, replyText, type MockAgent } from '../../mocks/index.js';
import { UUID, WAY_COMBOS, collect, receivedMessage, uniqueName, useHarness } from './harness.js';

const h = useHarness();

const full: AgentInput = {
  parts: [
    { kind: 'text', text: 'part one, ' },
    { kind: 'text', text: 'part two' },
  ],
  contextId: 'ctx-given-1',
  taskId: 'task-given-1',
  metadata: { tenant: 'acme', priority: 2 },
};

/** The last event, which ends every `invoke` / `stream` answer. */
const last = (events: AgentEvent[]): AgentEvent | undefined => events[events.length - 1];

describe.each(WAY_COMBOS)('invoke and stream input forms (%s, v%s %s)', (way, version, binding) => {
  async function setup(): Promise<{ agent: MockAgent; client: A2AClient }> {
    const agent = mockAgent({ name: uniqueName('events'), version, binding });
    const served = await h.agent(way, agent);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    return { agent, client };
  }

  it('invoke(string) sends one user text message and resolves with the answer events', async () => {
    const { agent, client } = await setup();
    const events = await client.invoke('summarise this');
    const sent = receivedMessage(agent.calls[0]);
    expect(sent.messageId).toMatch(UUID);
    expect([sent.role, sent.text, sent.contextId, sent.taskId, sent.metadata]).toEqual(['user', 'summarise this', undefined, undefined, undefined]);
    const end = last(events);
    expect([end?.done, end?.state, end?.text, end?.agent, end?.error]).toEqual([true, 'completed', 'echo: summarise this', agent.name, undefined]);
    expect(end?.taskId).toBe(agent.store.list()[0]?.id);
  });

  it('invoke({ parts, contextId, taskId, metadata }) sends all of them', async () => {
    const { agent, client } = await setup();
    const events = await client.invoke(full);
    const { messageId, ...sent } = receivedMessage(agent.calls[0]);
    expect(messageId).toMatch(UUID);
    expect(sent).toEqual({
      role: 'user',
      text: 'part one, part two',
      contextId: 'ctx-given-1',
      taskId: 'task-given-1',
      metadata: { tenant: 'acme', priority: 2 },
    });
    const end = last(events);
    expect([end?.taskId, end?.contextId, end?.state, end?.text]).toEqual(['task-given-1', 'ctx-given-1', 'completed', 'echo: part one, part two']);
  });

  it('invoke resolves a Message answer as one final event', async () => {
    const { agent, client } = await setup();
    agent.reply(replyText('hello there'));
    const events = await client.invoke({ parts: [{ kind: 'text', text: 'hi' }], contextId: 'ctx-m' });
    expect(events.map((e) => [e.object, e.done, e.text, e.contextId, e.agent])).toEqual([['chat.completion', true, 'hello there', 'ctx-m', agent.name]]);
  });

  it('invoke never throws for a failed task: the failure is the terminal error event', async () => {
    const { agent, client } = await setup();
    agent.reply(failedTask({ error_code: 'quota_exceeded', error_message: 'out of quota', error_type: 'flow_error' }));
    const events = await client.invoke('x');
    const end = last(events);
    expect(end !== undefined && isTerminalError(end)).toBe(true);
    expect([end?.state, end?.error?.code, end?.error?.message, end?.error?.type]).toEqual(['failed', 'quota_exceeded', 'out of quota', 'flow_error']);
  });

  it('stream(string) streams the answer and ends with the completed event', async () => {
    const { agent, client } = await setup();
    const events = await collect(client.stream('stream this'));
    expect(agent.calls.map((c) => c.method)).toEqual(['sendStreamingMessage']);
    const sent = receivedMessage(agent.calls[0]);
    expect([sent.role, sent.text]).toEqual(['user', 'stream this']);
    expect(events.filter((e) => e.done)).toHaveLength(1);
    const end = last(events);
    expect([end?.done, end?.state, end?.text, end?.error]).toEqual([true, 'completed', 'echo: stream this', undefined]);
    expect(events.some((e) => e.partial && e.text === 'echo: stream this')).toBe(true);
  });

  it('stream({ parts, contextId, taskId, metadata }) sends all of them', async () => {
    const { agent, client } = await setup();
    const events = await collect(client.stream(full));
    const { messageId, ...sent } = receivedMessage(agent.calls[0]);
    expect(messageId).toMatch(UUID);
    expect(sent).toEqual({
      role: 'user',
      text: 'part one, part two',
      contextId: 'ctx-given-1',
      taskId: 'task-given-1',
      metadata: { tenant: 'acme', priority: 2 },
    });
    const end = last(events);
    expect([end?.taskId, end?.contextId, end?.state]).toEqual(['task-given-1', 'ctx-given-1', 'completed']);
  });
});
