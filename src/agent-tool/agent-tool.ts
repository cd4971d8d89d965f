/**
 * The framework-free core of `a2aTool`: a remote agent as a named, described function from a message
 * to a result. `a2a-resilient/ai-sdk` and `a2a-resilient/langchain` wrap it in their framework's tool.
 */
import type { A2AClient } from '../client/a2a-client.js';
import { runAgentCall, type AgentEventSource } from './run-agent-call.js';
import { toolDescription } from './tool-description.js';
import { toolNameFromCard } from './tool-name.js';
import type { A2AToolOptions } from './tool-options.js';
import { abortedResult, type A2AToolOutput, type A2AToolResult } from './tool-result.js';
import { TurnQueue } from './turn-queue.js';

/** A remote agent as a tool, before a framework wraps it. */
export interface AgentTool {
  /** The tool's name (`options.name`, else the card's name made safe). */
  readonly name: string;
  /** The tool's description (`options.description`, else made from the card). */
  readonly description: string;
  /** One call: partial results while the answer streams, then one result (see `runAgentCall`). */
  call(message: string, signal?: AbortSignal): AsyncGenerator<A2AToolOutput, void, undefined>;
  /** One call's last result only. */
  result(message: string, signal?: AbortSignal): Promise<A2AToolResult>;
}

/** The tool for `client`'s agent, as `options` say. Never throws. */
export function createAgentTool(client: A2AClient, options: A2AToolOptions = {}): AgentTool {
  const name = options.name ?? toolNameFromCard(client.card.name);
  const description = options.description ?? toolDescription(client.card);
  const chat = options.conversation ? client.conversation() : undefined;
  const turns = new TurnQueue();

  async function* call(message: string, signal?: AbortSignal): AsyncGenerator<A2AToolOutput, void, undefined> {
    if (!chat) return yield* runAgentCall(client, message, signal);
    const release = await turns.take(signal);
    if (!release) return yield abortedResult(signal ?? AbortSignal.abort(), {});
    try {
      yield* runAgentCall(chat satisfies AgentEventSource, message, signal);
    } finally {
      release();
    }
  }

  async function result(message: string, signal?: AbortSignal): Promise<A2AToolResult> {
    let last: A2AToolOutput | undefined;
    for await (const output of call(message, signal)) last = output;
    // runAgentCall always ends with a result; the fallback keeps the type honest.
    if (last === undefined || 'partial' in last) return { ok: true, text: last?.text ?? '' };
    return last;
  }

  return { name, description, call, result };
}
