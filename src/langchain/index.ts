/**
 * Remote A2A agents as LangChain.js tools (`@langchain/core` 1.x): `a2aTool(client)` is a structured
 * tool named and described from the agent card, taking `{ message }`.
 *
 * ```ts
 * const billing = await A2AClient.connect(url);
 * const model = chatModel.bindTools([a2aTool(billing)]);
 * ```
 *
 * @module a2a-resilient/langchain
 */
import { tool, type DynamicStructuredTool } from '@langchain/core/tools';
import { z } from 'zod';
import type { A2AClient } from '../client/a2a-client.js';
import { createAgentTool } from '../agent-tool/agent-tool.js';
import type { A2AToolOptions } from '../agent-tool/tool-options.js';
import type { A2AToolResult } from '../agent-tool/tool-result.js';

export type { A2AToolOptions } from '../agent-tool/tool-options.js';
export type { A2AToolError, A2AToolFailure, A2AToolResult, A2AToolSuccess, A2AToolTask } from '../agent-tool/tool-result.js';

/** The input the model sends: one message for the agent. */
export interface A2AToolInput {
  /** The message for the remote agent, in natural language. */
  message: string;
}

/** The zod schema of {@link A2AToolInput} (the tool's `schema`). */
export type A2AToolSchema = z.ZodObject<{
  /** The message for the remote agent. */
  message: z.ZodString;
}>;

/** The tool's input schema: one message for the agent. */
const schema: A2AToolSchema = z.object({
  message: z.string().describe('The message for the remote agent, in natural language: the request and all the context it needs.'),
});

/**
 * A LangChain tool that sends `{ message }` to the agent of `client`, named and described from its
 * card (`options.name` / `options.description` win).
 *
 * Its content — what the model reads, and what `tool.invoke({ message })` resolves with — is the
 * result as a JSON string: `{"ok":true,"text":…,"taskId":…,"contextId":…,"state":…}`, or for a
 * remote failure `{"ok":false,"error":{"type","code","message","retryable","retryAfterMs"}}`. JSON
 * because a ToolMessage's content is text, and models read one consistent JSON shape more reliably
 * than prose that differs between success and failure (`JSON.parse` it for the object; the
 * shape is `A2AToolResult`). A remote failure is never thrown, so an agent loop goes on and the model can decide.
 *
 * Abort (`invoke(input, { signal })`): the agent's task is cancelled in the background
 * (`cancelOnAbort`) and `invoke` rejects at once with the signal's reason (an `AbortError` when it
 * has none): LangChain itself rejects an aborted tool call that way, whatever the tool returns, and
 * runs (LangGraph included) stop on it.
 *
 * LangChain's tool messages carry one result, so the answer is not streamed to the model; the tool
 * waits for the whole answer. Never throws.
 */
export function a2aTool(client: A2AClient, options: A2AToolOptions = {}): DynamicStructuredTool<A2AToolSchema, A2AToolInput, A2AToolInput, string> {
  const agent = createAgentTool(client, options);
  return tool(
    async (input: A2AToolInput, config?: { signal?: AbortSignal }): Promise<string> => {
      const result: A2AToolResult = await agent.result(input.message, config?.signal);
      return JSON.stringify(result);
    },
    { name: agent.name, description: agent.description, schema },
  );
}
