/**
 * Remote A2A agents as tools for the Vercel AI SDK (`ai` 5, 6 and 7): `a2aTool(client)` is a tool
 * whose `execute` streams the agent's answer as preliminary results and hands a remote failure to the
 * model as a result it can read.
 *
 * ```ts
 * const billing = await A2AClient.connect(url);
 * const result = await generateText({ model, prompt, tools: { [a2aToolName(billing)]: a2aTool(billing) } });
 * ```
 *
 * @module a2a-resilient/ai-sdk
 */
import { tool, type Tool } from 'ai';
import { z } from 'zod';
import type { A2AClient } from '../client/a2a-client.js';
import { createAgentTool } from '../agent-tool/agent-tool.js';
import { toolNameFromCard } from '../agent-tool/tool-name.js';
import type { A2AToolOptions } from '../agent-tool/tool-options.js';
import type { A2AToolOutput } from '../agent-tool/tool-result.js';

export type { A2AToolOptions } from '../agent-tool/tool-options.js';
export type { A2AToolError, A2AToolFailure, A2AToolOutput, A2AToolPartial, A2AToolResult, A2AToolSuccess, A2AToolTask } from '../agent-tool/tool-result.js';

/** The input the model sends: one message for the agent. */
export interface A2AToolInput {
  /** The message for the remote agent, in natural language. */
  message: string;
}

/** The tool's input schema (zod 4: `ai` 5, 6 and 7 all read it). */
const inputSchema = z.object({
  message: z.string().describe('The message for the remote agent, in natural language: the request and all the context it needs.'),
});

/**
 * The name to key the tool by in `tools: { [name]: tool }`: `options.name` as given, else the agent
 * card's name made safe for model providers (`[A-Za-z0-9_-]{1,64}`; `Billing Agent (EU)` →
 * `Billing_Agent_EU`, `a2a_agent` when nothing is left). The AI SDK takes a tool's name from its key,
 * so the tool object cannot carry it. Never throws.
 */
export function a2aToolName(client: A2AClient, options: Pick<A2AToolOptions, 'name'> = {}): string {
  return options.name ?? toolNameFromCard(client.card.name);
}

/**
 * An AI SDK tool that sends the model's `{ message }` to the agent of `client`.
 *
 * `execute` is an async generator: while the agent streams, each yield is a preliminary result
 * `{ ok: true, partial: true, text }` (all text so far; `streamText` shows them as preliminary tool
 * results); its last yield is the result the model reads: `{ ok: true, text, taskId?, contextId?,
 * state? }`, or for a remote failure `{ ok: false, error: { type, code?, message, retryable,
 * retryAfterMs? } }` — never a thrown error, so the run goes on and the model can decide (retry
 * later, try another agent, tell the user). `state: 'input-required'` means `text` is the agent's
 * question; answer it with another call (`conversation: true` continues the same task).
 *
 * Abort (`abortSignal` of `generateText` / `streamText`): the stream stops at once, the agent's task
 * is cancelled in the background (`cancelOnAbort`) and `execute` settles promptly with
 * `{ ok: false, error: { type: 'aborted', … } }` rather than rejecting, so a saved conversation
 * keeps a result for every tool call (the AI SDK refuses a history with a tool call and no result).
 *
 * The name is not part of an AI SDK tool: key it with {@link a2aToolName} (`options.name` only
 * matters there).
 * Never throws; neither does `execute`.
 */
export function a2aTool(client: A2AClient, options: A2AToolOptions = {}): Tool<A2AToolInput, A2AToolOutput> {
  const agent = createAgentTool(client, options);
  return tool({
    description: agent.description,
    inputSchema,
    execute: (input: A2AToolInput, { abortSignal }: { abortSignal?: AbortSignal }) => agent.call(input.message, abortSignal),
  });
}
