/**
 * `a2aTool` under `ai` 7 (the installed `ai`): real generateText / streamText runs with the SDK's mock
 * model calling the tool, a mock A2A agent on loopback answering it.
 */
import { generateText, isStepCount, streamText, type InferToolInput, type InferToolOutput } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { failedTask, stream, type Scenario } from '../../mocks/index.js';
import { a2aTool, a2aToolName, type A2AToolInput, type A2AToolOutput } from '../../src/ai-sdk/index.js';
import { PROMPT_MS, agentAndClient, cancelsReceived, sentTexts } from '../agent-tool/agents.js';
import { toolCallingModelV4 } from './models.js';

const STREAMED = stream([{ status: 'working' }, { artifact: 'Q3 revenue: ' }, { artifact: '4.2M', append: true }, { status: 'completed' }], { gapMs: 20 });

/** A scenario that says when the agent started answering. */
function noting(scenario: Scenario): { scenario: Scenario; started: Promise<void> } {
  let started = (): void => undefined;
  const promise = new Promise<void>((resolve) => (started = resolve));
  return { scenario: (ctx) => (started(), scenario(ctx)), started: promise };
}

describe('a2aTool with ai 7', () => {
  it('types: the SDK infers the tool’s input and output (typed tool results, no any)', () => {
    expectTypeOf<InferToolInput<ReturnType<typeof a2aTool>>>().toEqualTypeOf<A2AToolInput>();
    expectTypeOf<InferToolOutput<ReturnType<typeof a2aTool>>>().toEqualTypeOf<A2AToolOutput>();
  });

  it('exposes the card: a provider-safe name to key it by, the description from the card', async () => {
    const { client } = await agentAndClient({ name: 'Billing Agent (EU)', baseUrl: 'http://billing.agents.test', description: 'Answers invoice questions.' });
    expect(a2aToolName(client)).toBe('Billing_Agent_EU');
    expect(a2aToolName(client, { name: 'billing' })).toBe('billing');
    expect(a2aTool(client).description).toContain('Answers invoice questions.');
    expect(a2aTool(client, { description: 'mine' }).description).toBe('mine');
  });

  it('generateText: the agent gets the model’s message, its answer is the tool result and reaches the next step', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', STREAMED);
    const name = a2aToolName(client);
    const model = toolCallingModelV4(name, 'Q3 revenue?');
    const result = await generateText({ model, prompt: 'revenue?', tools: { [name]: a2aTool(client) }, stopWhen: isStepCount(2) });
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
    const run = streamText({ model: toolCallingModelV4(name, 'Q3 revenue?'), prompt: 'revenue?', tools: { [name]: a2aTool(client) }, stopWhen: isStepCount(2) });
    const results: Array<{ preliminary: boolean; output: A2AToolOutput }> = [];
    for await (const part of run.fullStream) if (part.type === 'tool-result') results.push({ preliminary: part.preliminary === true, output: part.output as A2AToolOutput });
    // The AI SDK repeats the last yield as a preliminary result before the final one: the partials are the first two.
    expect(results.filter((r) => r.preliminary && 'partial' in r.output).map((r) => r.output)).toEqual([
      expect.objectContaining({ ok: true, partial: true, text: 'Q3 revenue: ' }),
      expect.objectContaining({ ok: true, partial: true, text: 'Q3 revenue: 4.2M' }),
    ]);
    expect(results.filter((r) => !r.preliminary).map((r) => r.output)).toEqual([expect.objectContaining({ ok: true, text: 'Q3 revenue: 4.2M', state: 'completed' })]);
    expect(await run.text).toBe('all done');
  });

  it('a failed task is a result the model reads (ok false, type, code, retryable) and the run goes on', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed' }));
    const name = a2aToolName(client);
    const model = toolCallingModelV4(name, 'close the books');
    const result = await generateText({ model, prompt: 'close', tools: { [name]: a2aTool(client) }, stopWhen: isStepCount(2) });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ ok: false, error: { type: 'flow_error', code: 'LEDGER_LOCKED', message: 'the ledger is closed', retryable: false } });
    expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain('LEDGER_LOCKED');
    expect(result.text).toBe('all done');
  });

  it('generateText aborted while the agent works: the run ends promptly and the agent gets a cancel for the task', async () => {
    const { agent, client } = await agentAndClient();
    const served = noting(stream([{ status: 'working' }, { artifact: 'thinking…' }], { idleAfter: 3 }));
    agent.on('sendStreamingMessage', served.scenario);
    const name = a2aToolName(client);
    const controller = new AbortController();
    const run = generateText({ model: toolCallingModelV4(name, 'long job'), prompt: 'go', tools: { [name]: a2aTool(client) }, stopWhen: isStepCount(2), abortSignal: controller.signal });
    const settled = run.then(() => 'resolved', () => 'rejected');
    await served.started;
    await new Promise((r) => setTimeout(r, 150)); // the client has seen the task by now
    const abortedAt = performance.now();
    controller.abort();
    expect(await settled).toBe('rejected');
    expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
    expect(await cancelsReceived(agent)).toEqual([agent.store.list()[0]?.id]);
  });

  it('streamText aborted at the first preliminary result: the stream ends promptly and the task is cancelled', async () => {
    const { agent, client } = await agentAndClient();
    agent.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'thinking…' }], { idleAfter: 3 }));
    const name = a2aToolName(client);
    const controller = new AbortController();
    const run = streamText({ model: toolCallingModelV4(name, 'long job'), prompt: 'go', tools: { [name]: a2aTool(client) }, stopWhen: isStepCount(2), abortSignal: controller.signal });
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
