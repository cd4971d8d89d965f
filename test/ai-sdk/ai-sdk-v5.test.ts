/**
 * `a2aTool` under `ai` 5, the oldest major we claim: `ai` is resolved to the `ai-v5` package for this
 * file, so `src/ai-sdk` builds its tool with ai 5's own `tool()` — what an app with ai 5 installed gets.
 */
import { generateText, stepCountIs, streamText, type Tool as ToolV5 } from 'ai-v5';
import { describe, expect, it, vi } from 'vitest';
import { failedTask, stream } from '../../mocks/index.js';
import { a2aTool as a2aToolTyped, a2aToolName, type A2AToolInput, type A2AToolOptions, type A2AToolOutput } from '../../src/ai-sdk/index.js';
import type { A2AClient } from '../../src/index.js';
import { PROMPT_MS, agentAndClient, cancelsReceived, sentTexts } from '../agent-tool/agents.js';
import { toolCallingModelV2 } from './models-v5.js';

vi.mock('ai', async () => await import('ai-v5'));

/**
 * `a2aTool` as an app with ai 5 sees it: its declared `Tool` comes from the app's `ai`, which is ai 7
 * in this repository, so the type is restated for ai 5 here (at run time the object is ai 5's already).
 */
const a2aTool = (client: A2AClient, options?: A2AToolOptions): ToolV5<A2AToolInput, A2AToolOutput> => a2aToolTyped(client, options) as unknown as ToolV5<A2AToolInput, A2AToolOutput>;

const STREAMED = stream([{ status: 'working' }, { artifact: 'Q3 revenue: ' }, { artifact: '4.2M', append: true }, { status: 'completed' }], { gapMs: 20 });

describe('a2aTool with ai 5', () => {
  it('the tool is built by ai 5 itself', async () => {
    const { tool } = await import('ai');
    const { tool: toolV5 } = await import('ai-v5');
    expect(tool).toBe(toolV5);
  });

  it('generateText: the agent’s answer is the tool result and reaches the next step', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const name = a2aToolName(client);
    const model = toolCallingModelV2(name, 'Q3 revenue?');
    const result = await generateText({ model, prompt: 'revenue?', tools: { [name]: a2aTool(client) }, stopWhen: stepCountIs(2) });
    expect(sentTexts(agent)).toEqual(['Q3 revenue?']);
    const task = agent.store.list()[0];
    expect(result.steps[0]?.toolResults.map((r) => r.output)).toEqual([{ ok: true, text: 'Q3 revenue: 4.2M', taskId: task?.id, contextId: task?.contextId, state: 'completed' }]);
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('Q3 revenue: 4.2M');
    expect(result.text).toBe('all done');
  });

  it('streamText: preliminary results carry the growing answer, then the final result', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const name = a2aToolName(client);
    const run = streamText({ model: toolCallingModelV2(name, 'Q3 revenue?'), prompt: 'revenue?', tools: { [name]: a2aTool(client) }, stopWhen: stepCountIs(2) });
    const results: Array<{ preliminary: boolean; output: A2AToolOutput }> = [];
    for await (const part of run.fullStream) if (part.type === 'tool-result') results.push({ preliminary: part.preliminary === true, output: part.output as A2AToolOutput });
    expect(results.filter((r) => r.preliminary && 'partial' in r.output).map((r) => (r.output.ok ? r.output.text : r.output.error.message))).toEqual(['Q3 revenue: ', 'Q3 revenue: 4.2M']);
    expect(results.filter((r) => !r.preliminary).map((r) => r.output)).toEqual([expect.objectContaining({ ok: true, text: 'Q3 revenue: 4.2M', state: 'completed' })]);
    expect(await run.text).toBe('all done');
  });

  it('a failed task is a result the model reads and the run goes on', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed' }));
    const name = a2aToolName(client);
    const model = toolCallingModelV2(name, 'close the books');
    const result = await generateText({ model, prompt: 'close', tools: { [name]: a2aTool(client) }, stopWhen: stepCountIs(2) });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ ok: false, error: { type: 'flow_error', code: 'LEDGER_LOCKED', retryable: false } });
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('LEDGER_LOCKED');
    expect(result.text).toBe('all done');
  });

  it('streamText aborted at the first preliminary result: the stream ends promptly and the task is cancelled', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'thinking…' }], { idleAfter: 3 }));
    const name = a2aToolName(client);
    const controller = new AbortController();
    const run = streamText({ model: toolCallingModelV2(name, 'long job'), prompt: 'go', tools: { [name]: a2aTool(client) }, stopWhen: stepCountIs(2), abortSignal: controller.signal });
    let abortedAt = 0;
    const parts: string[] = [];
    for await (const part of run.fullStream) {
      parts.push(part.type);
      if (part.type === 'tool-result' && part.preliminary && abortedAt === 0) {
        abortedAt = performance.now();
        controller.abort();
      }
    }
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
    expect(parts).toContain('abort');
    expect(await cancelsReceived(agent)).toEqual([agent.store.list()[0]?.id]);
  });
});
