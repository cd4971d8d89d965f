/**
 * Remote A2A agents as Vercel AI SDK tools: a model (the AI SDK's own mock model, no LLM, no network)
 * calls a billing agent, whose answer streams into preliminary tool results, and a ledger agent whose
 * task fails — the failure comes back as a result the model reads, and the run goes on to its next step.
 *
 * Run by `npm test` (test/examples); after `npm run build` also `npm run example examples/ai-sdk-tool.ts` (every supported Node).
 */
import { isStepCount, simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { A2AClient } from 'a2a-resilient';
import { a2aTool, a2aToolName, type A2AToolOutput } from 'a2a-resilient/ai-sdk';
import { failedTask, mockAgent, stream } from 'a2a-resilient/mocks';

/** A language model stream part, as the mock model's specification types it. */
type Part = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** A scripted model: step 1 calls both tools, step 2 answers. A real app passes `openai('…')` or the like. */
function scriptedModel(billing: string, ledger: string): MockLanguageModelV4 {
  const steps: Part[][] = [
    [
      { type: 'tool-call', toolCallId: 'call-1', toolName: billing, input: JSON.stringify({ message: 'Total of invoice INV-7?' }) },
      { type: 'tool-call', toolCallId: 'call-2', toolName: ledger, input: JSON.stringify({ message: 'Book INV-7.' }) },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
    ],
    [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'INV-7 is €1,200; booking it failed (ledger locked), I will retry later.' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
    ],
  ];
  return new MockLanguageModelV4({ doStream: steps.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })) });
}

/** Runs one model turn with two agents as tools; returns what the tools yielded and the model's text. */
export async function main(): Promise<{ preliminary: string[]; results: Record<string, A2AToolOutput>; text: string }> {
  // Two agents to call: local mocks on 127.0.0.1 (real HTTP). In production these are your agents' URLs.
  const billingAgent = mockAgent({ name: 'billing', version: '1.0', binding: 'JSONRPC' }).on(
    'sendStreamingMessage',
    stream([{ status: 'working' }, { artifact: 'INV-7: €1,200, ' }, { artifact: 'due 1 March', append: true }, { status: 'completed' }], { gapMs: 20 }),
  );
  const ledgerAgent = mockAgent({ name: 'ledger', version: '1.0', binding: 'JSONRPC' }).on(
    'sendMessage',
    failedTask({ error_type: 'flow_error', error_code: 'LEDGER_LOCKED', error_message: 'the ledger is closed for the audit' }),
  );
  const servers = await Promise.all([billingAgent.listen(), ledgerAgent.listen()]);
  const [billing, ledger] = await Promise.all(servers.map((server) => A2AClient.connect(server.url)));
  if (!billing || !ledger) throw new Error('unreachable');
  try {
    // The AI SDK names a tool by its key: a2aToolName gives the card's name made safe for providers.
    const tools = { [a2aToolName(billing)]: a2aTool(billing), [a2aToolName(ledger)]: a2aTool(ledger) };
    const run = streamText({
      model: scriptedModel(a2aToolName(billing), a2aToolName(ledger)),
      prompt: 'Book invoice INV-7.',
      tools,
      stopWhen: isStepCount(2), // the step after the tool results: the model reads them, failure included
    });
    const preliminary: string[] = [];
    const results: Record<string, A2AToolOutput> = {};
    for await (const part of run.fullStream) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as A2AToolOutput; // the tool set is keyed by runtime names, so the SDK types outputs loosely
      if (part.preliminary && 'partial' in output) preliminary.push(output.text); // the answer so far, as it streams
      if (!part.preliminary) results[part.toolName] = output; // { ok: true, text, … } or { ok: false, error }
    }
    return { preliminary, results, text: await run.text };
  } finally {
    await Promise.all([billing.close(), ledger.close()]);
    await Promise.all(servers.map((server) => server.close()));
  }
}
