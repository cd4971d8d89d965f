// Conversation turns the official server cannot script: auth-required, a Message answer, a stream cut
// midway with no resume, an agent that does not stream. Mock agents on a real loopback server.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { A2AClient, isTerminalError, type AgentEvent } from '../../src/index.js';
import { jsonRpcError, mockAgent, replyTask, replyText, stream, type MockAgent } from '../../mocks/index.js';
import { uniqueName, useHarness } from './harness.js';

const h = useHarness();

async function setup(options: { streaming?: boolean } = {}): Promise<{ agent: MockAgent; client: A2AClient }> {
  const agent = mockAgent({ name: uniqueName('conversation'), version: '1.0', binding: 'JSONRPC', ...options });
  const served = await h.agent('loopback+undici', agent);
  const client = await A2AClient.connect(served.url, { ...served.options, retry: false });
  h.defer(() => client.close());
  return { agent, client };
}

const SentMessage = z.object({
  message: z.object({ contextId: z.string().optional(), taskId: z.string().optional(), referenceTaskIds: z.array(z.string()).optional() }),
});

/** The ids of every message the agent was sent, in order. */
function sentIds(agent: MockAgent): Array<z.infer<typeof SentMessage>['message']> {
  return agent.calls
    .filter((c) => c.method === 'sendMessage' || c.method === 'sendStreamingMessage')
    .map((c) => {
      const { contextId, taskId, referenceTaskIds } = SentMessage.parse(c.params).message;
      return { ...(contextId ? { contextId } : {}), ...(taskId ? { taskId } : {}), ...(referenceTaskIds ? { referenceTaskIds } : {}) };
    });
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('conversation edges', () => {
  it('auth-required is interrupted too: the next turn continues the task', async () => {
    const { agent, client } = await setup();
    agent.reply(replyTask({ state: 'auth-required', statusMessage: 'consent please' }), replyTask({ state: 'completed', artifacts: ['paid'] }));
    const chat = client.conversation();
    await chat.invoke('pay the invoice');
    expect(chat.state).toBe('auth-required');
    const open = chat.taskId;
    expect(open).toBeDefined();
    expect((await chat.invoke('consent given')).at(-1)).toMatchObject({ state: 'completed', text: 'paid' });
    const [first, second] = sentIds(agent);
    expect(first).toEqual({});
    expect(second).toEqual({ contextId: chat.contextId, taskId: open });
  });

  it('a Message answer gives the context only: the next turn goes to that context, with no task to continue or reference', async () => {
    const { agent, client } = await setup();
    agent.reply(replyText('hello'), replyText('again'));
    const chat = client.conversation();
    await chat.invoke('hi');
    expect([typeof chat.contextId, chat.lastTaskId, chat.state]).toEqual(['string', undefined, undefined]);
    await chat.invoke('and again');
    expect(sentIds(agent)).toEqual([{}, { contextId: chat.contextId }]);
  });

  it('a stream cut midway keeps what it saw: the task is known, not open; the next turn references it', async () => {
    const { agent, client } = await setup();
    agent.reply(stream([{ status: 'working' }, { artifact: 'half an ans' }, { status: 'completed' }], { dropAfter: 2 }), replyTask());
    // Whatever the client tries to pick the stream up again finds nothing.
    agent.on(['subscribeToTask', 'getTask'], jsonRpcError(-32001, 'task not found'));
    const chat = client.conversation();
    const events = await collect(chat.stream('long question'));
    const end = events.at(-1);
    expect(end !== undefined && isTerminalError(end)).toBe(true);
    const cut = chat.lastTaskId;
    expect([chat.state, chat.taskId, typeof cut]).toEqual(['working', undefined, 'string']);
    await chat.invoke('shorter question');
    expect(sentIds(agent)[1]).toEqual({ contextId: chat.contextId, referenceTaskIds: [cut] });
  });

  it('an agent that does not stream: stream turns carry the ids through its single answer', async () => {
    const { agent, client } = await setup({ streaming: false });
    agent.reply(replyTask({ state: 'input-required', statusMessage: 'which one?' }), replyTask({ state: 'completed', artifacts: ['done'] }));
    const chat = client.conversation();
    expect((await collect(chat.stream('pick'))).at(-1)).toMatchObject({ state: 'input-required' });
    const open = chat.taskId;
    expect((await collect(chat.stream('the blue one'))).at(-1)).toMatchObject({ state: 'completed' });
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(0);
    expect(sentIds(agent)[1]).toEqual({ contextId: chat.contextId, taskId: open });
  });

  it('a turn started from a stream whose consumer throws releases the turn', async () => {
    const { agent, client } = await setup();
    agent.reply(stream([{ status: 'working' }, { status: 'completed' }]), replyTask());
    const chat = client.conversation();
    const boom = new Error('consumer failed');
    await expect(
      (async () => {
        for await (const _ of chat.stream('first')) throw boom;
      })(),
    ).rejects.toBe(boom);
    expect((await chat.invoke('second')).at(-1)).toMatchObject({ state: 'completed' });
  });
});
