/**
 * `a2aTool` as a LangChain.js structured tool (`@langchain/core` 1.x), against a mock A2A agent on
 * loopback: called directly, as a model's tool call (the ToolMessage the model reads), failing, aborted.
 */
import { ToolMessage } from '@langchain/core/messages';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { failedTask, replyTask, stream } from '../../mocks/index.js';
import { a2aTool } from '../../src/langchain/index.js';
import { PROMPT_MS, agentAndClient, cancelsReceived, sentTexts } from '../agent-tool/agents.js';

const STREAMED = stream([{ status: 'working' }, { artifact: 'Q3 revenue: ' }, { artifact: '4.2M', append: true }, { status: 'completed' }], { gapMs: 10 });

describe('a2aTool with LangChain', () => {
  it('is named and described from the card: a provider-safe name, the description and skills', async () => {
    const { client } = await agentAndClient({ name: 'Billing Agent (EU)', baseUrl: 'http://billing.agents.test', description: 'Answers invoice questions.' });
    const tool = a2aTool(client);
    expect(tool.name).toBe('Billing_Agent_EU');
    expect(tool.description).toContain('Answers invoice questions.');
    expect(tool.description).toContain('- Echo: Echoes the input'); // the mock card's skill
    expect(a2aTool(client, { name: 'billing', description: 'mine' })).toMatchObject({ name: 'billing', description: 'mine' });
  });

  it('invoke({ message }): the agent gets the message, the content is the answer as JSON', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const content = await a2aTool(client).invoke({ message: 'Q3 revenue?' });
    expectTypeOf(content).toBeString();
    expect(sentTexts(agent)).toEqual(['Q3 revenue?']);
    const task = agent.store.list()[0];
    expect(JSON.parse(content)).toEqual({ ok: true, text: 'Q3 revenue: 4.2M', taskId: task?.id, contextId: task?.contextId, state: 'completed' });
  });

  it('as a model’s tool call: a ToolMessage for that call whose content is the result', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const tool = a2aTool(client);
    const message: unknown = await tool.invoke({ type: 'tool_call', id: 'call-7', name: tool.name, args: { message: 'Q3 revenue?' } });
    if (!(message instanceof ToolMessage)) return expect.fail('expected a ToolMessage');
    const reply = message;
    expect([reply.tool_call_id, reply.status]).toEqual(['call-7', 'success']);
    expect(JSON.parse(String(reply.content))).toMatchObject({ ok: true, text: 'Q3 revenue: 4.2M' });
  });

  it('a failed task is content the model reads (ok false, type, code, retryable), not an exception', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed' }));
    const content = await a2aTool(client).invoke({ message: 'close the books' });
    expect(JSON.parse(content)).toMatchObject({ ok: false, state: 'failed', error: { type: 'flow_error', code: 'LEDGER_LOCKED', message: 'the ledger is closed', retryable: false } });
  });

  it('an input-required answer reads as the agent’s question; conversation: true answers it on the same task', async () => {
    const { agent, client } = await agentAndClient();
    agent.reply(replyTask({ state: 'input-required', statusMessage: 'Which quarter?' }), replyTask({ artifacts: ['Q3: 4.2M'] }));
    const tool = a2aTool(client, { conversation: true });
    const question = JSON.parse(await tool.invoke({ message: 'revenue?' }));
    const answer = JSON.parse(await tool.invoke({ message: 'Q3' }));
    expect(question).toMatchObject({ ok: true, state: 'input-required', text: 'Which quarter?' });
    expect(answer).toMatchObject({ ok: true, state: 'completed', text: 'Q3: 4.2M', taskId: question.taskId, contextId: question.contextId });
  });

  it('invoke(input, { signal }) aborted: rejects promptly with the abort and the agent gets a cancel for the task', async () => {
    const { agent, client } = await agentAndClient();
    let started = (): void => undefined;
    const serving = new Promise<void>((resolve) => (started = resolve));
    const idle = stream([{ status: 'working' }, { artifact: 'thinking…' }], { idleAfter: 3 });
    agent.on('sendStreamingMessage', (ctx) => (started(), idle(ctx)));
    const controller = new AbortController();
    const run = a2aTool(client).invoke({ message: 'long job' }, { signal: controller.signal });
    const settled = run.then(() => undefined, (error: unknown) => error);
    await serving;
    await new Promise((r) => setTimeout(r, 150)); // the client has seen the task by now
    const abortedAt = performance.now();
    const reason = new Error('the user stopped the run');
    controller.abort(reason);
    expect(await settled).toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
    expect(await cancelsReceived(agent)).toEqual([agent.store.list()[0]?.id]);
  });
});
