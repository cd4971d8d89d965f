import { describe, expect, it } from 'vitest';
import { failedTask, hang, httpError, replyTask, stream } from '../../mocks/index.js';
import { createAgentTool } from '../../src/agent-tool/agent-tool.js';
import type { A2AToolOutput } from '../../src/agent-tool/tool-result.js';
import { PROMPT_MS, agentAndClient, cancelsReceived } from './agents.js';

async function collect(outputs: AsyncIterable<A2AToolOutput>): Promise<A2AToolOutput[]> {
  const all: A2AToolOutput[] = [];
  for await (const o of outputs) all.push(o);
  return all;
}

const STREAMED = stream([{ status: 'working' }, { artifact: 'Q3 revenue: ' }, { artifact: '4.2M, ', append: true }, { artifact: 'up 3%', append: true }, { status: 'completed' }], { gapMs: 10 });

describe('the tool core: one call, as a model reads it', () => {
  it('a streamed answer: partial results carry all text so far, the last result the whole answer with the task ids', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const outputs = await collect(createAgentTool(client).call('Q3?'));
    expect(outputs.filter((o) => 'partial' in o).map((o) => o.text)).toEqual(['Q3 revenue: ', 'Q3 revenue: 4.2M, ', 'Q3 revenue: 4.2M, up 3%']);
    const task = agent.store.list()[0];
    expect(outputs.at(-1)).toEqual({ ok: true, text: 'Q3 revenue: 4.2M, up 3%', taskId: task?.id, contextId: task?.contextId, state: 'completed' });
  });

  it('an input-required answer is a success whose state says the text is the agent’s question', async () => {
    const { agent, client } = await agentAndClient();
    agent.reply(replyTask({ state: 'input-required', statusMessage: 'Which quarter?' }));
    const result = await createAgentTool(client).result('revenue?');
    expect(result).toMatchObject({ ok: true, state: 'input-required', text: 'Which quarter?' });
  });

  it('a failed task is a result, not an exception: type, code, message, retryable false; JSON round-trips unchanged', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed for the audit' }));
    const result = await createAgentTool(client).result('close the books');
    expect(result).toMatchObject({ ok: false, state: 'failed', error: { type: 'flow_error', code: 'LEDGER_LOCKED', message: 'the ledger is closed for the audit', retryable: false } });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('an overloaded agent: retryable true with the Retry-After the agent asked for', async () => {
    const { agent, client } = await agentAndClient({}, { retry: false });
    agent.on('sendMessage', httpError(503, { retryAfter: 2 }));
    const result = await createAgentTool(client).result('hi');
    expect(result).toMatchObject({ ok: false, error: { type: expect.any(String), code: '503', retryable: true, retryAfterMs: 2_000 } });
  });

  it('abort: the call ends promptly with an aborted result (task ids, no stale state) and the agent receives a cancel for the task', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'partial answer' }], { idleAfter: 3 }));
    const controller = new AbortController();
    const outputs: A2AToolOutput[] = [];
    let abortedAt = 0;
    for await (const o of createAgentTool(client).call('long job', controller.signal)) {
      outputs.push(o);
      if ('partial' in o) {
        abortedAt = performance.now();
        controller.abort(new Error('the user stopped the run'));
      }
    }
    expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
    const taskId = agent.store.list()[0]?.id;
    expect(outputs.at(-1)).toEqual({ ok: false, error: { type: 'aborted', code: 'aborted', message: 'the user stopped the run', retryable: false }, taskId, contextId: expect.any(String) });
    expect(await cancelsReceived(agent)).toEqual([taskId]);
  });

  it('abort before the agent answers anything: still an aborted result, promptly', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', hang());
    const started = performance.now();
    const result = await createAgentTool(client).result('x', AbortSignal.timeout(100));
    expect(performance.now() - started).toBeLessThan(100 + PROMPT_MS);
    expect(result).toMatchObject({ ok: false, error: { type: 'aborted', retryable: false } });
  });
});

describe('the tool core: conversation', () => {
  it('conversation: true carries the context, and answers the open input-required task', async () => {
    const { agent, client } = await agentAndClient();
    agent.reply(replyTask({ state: 'input-required', statusMessage: 'Which quarter?' }), replyTask({ artifacts: ['Q3: 4.2M'] }), replyTask({ artifacts: ['Q4: 4.4M'] }));
    const tool = createAgentTool(client, { conversation: true });
    const first = await tool.result('revenue?');
    const second = await tool.result('Q3');
    const third = await tool.result('and Q4?');
    expect([first.state, second.state, third.state]).toEqual(['input-required', 'completed', 'completed']);
    expect(new Set([first.contextId, second.contextId, third.contextId]).size).toBe(1);
    expect(second.taskId).toBe(first.taskId); // the question was answered on its own task
    expect(third.taskId).not.toBe(first.taskId);
  });

  it('without conversation every call starts a new context', async () => {
    const { client } = await agentAndClient();
    const tool = createAgentTool(client);
    const [a, b] = [await tool.result('one'), await tool.result('two')];
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(a.contextId).not.toBe(b.contextId);
  });

  it('parallel calls on one conversation run one after the other instead of failing', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const tool = createAgentTool(client, { conversation: true });
    const results = await Promise.all([tool.result('a'), tool.result('b'), tool.result('c')]);
    expect(results.map((r) => (r.ok ? r.text : r.error.message))).toEqual(Array(3).fill('Q3 revenue: 4.2M, up 3%'));
    expect(new Set(results.map((r) => r.contextId)).size).toBe(1);
  });
});
