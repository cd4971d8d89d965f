/**
 * Scripted language models for `ai` 5 (specification v2, `ai-v5/test`): step 1 calls the tool with a
 * message, step 2 answers with text; prompts are kept (`doGenerateCalls` / `doStreamCalls`).
 */
import { simulateReadableStream } from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';

/** One part of the model's stream, as this specification version types it. */
type StreamPart = Awaited<ReturnType<MockLanguageModelV2['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** Calls `toolName` with `{ message }` once, then says `finalText`. */
export function toolCallingModelV2(toolName: string, message: string, finalText = 'all done'): MockLanguageModelV2 {
  const toolCall = { type: 'tool-call' as const, toolCallId: 'call-1', toolName, input: JSON.stringify({ message }) };
  let generated = 0;
  let streamed = 0;
  return new MockLanguageModelV2({
    doGenerate: async () => {
      generated += 1;
      return generated === 1
        ? { content: [toolCall], finishReason: 'tool-calls', usage, warnings: [] }
        : { content: [{ type: 'text', text: finalText }], finishReason: 'stop', usage, warnings: [] };
    },
    doStream: async () => {
      streamed += 1;
      const chunks: StreamPart[] =
        streamed === 1
          ? [{ type: 'stream-start' as const, warnings: [] }, toolCall, { type: 'finish' as const, finishReason: 'tool-calls' as const, usage }]
          : [
              { type: 'stream-start' as const, warnings: [] },
              { type: 'text-start' as const, id: 't1' },
              { type: 'text-delta' as const, id: 't1', delta: finalText },
              { type: 'text-end' as const, id: 't1' },
              { type: 'finish' as const, finishReason: 'stop' as const, usage },
            ];
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
