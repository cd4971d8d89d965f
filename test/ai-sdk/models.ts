/**
 * Scripted language models for the AI SDK tests, built from the SDK's own test models: step 1 calls
 * the tool with a message, step 2 answers with text. What they were prompted with is kept
 * (`doGenerateCalls` / `doStreamCalls`), so a test can show a tool result reached the model.
 */
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** One part of the model's stream, as this specification version types it. */
type StreamPart = Awaited<ReturnType<MockLanguageModelV4['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** `ai` 7's mock model (specification v4): calls `toolName` with `{ message }` once, then says `finalText`. */
export function toolCallingModelV4(toolName: string, message: string, finalText = 'all done'): MockLanguageModelV4 {
  const toolCall = { type: 'tool-call' as const, toolCallId: 'call-1', toolName, input: JSON.stringify({ message }) };
  let generated = 0;
  let streamed = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      generated += 1;
      return generated === 1
        ? { content: [toolCall], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
        : { content: [{ type: 'text', text: finalText }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
    doStream: async () => {
      streamed += 1;
      const chunks: StreamPart[] =
        streamed === 1
          ? [{ type: 'stream-start' as const, warnings: [] }, toolCall, { type: 'finish' as const, finishReason: { unified: 'tool-calls' as const, raw: undefined }, usage }]
          : [
              { type: 'stream-start' as const, warnings: [] },
              { type: 'text-start' as const, id: 't1' },
              { type: 'text-delta' as const, id: 't1', delta: finalText },
              { type: 'text-end' as const, id: 't1' },
              { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: undefined }, usage },
            ];
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
