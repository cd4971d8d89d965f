/**
 * The official `@a2a-js/sdk` client (v1.x, JSON-RPC, global fetch), as users would call it.
 */
import { randomUUID } from 'node:crypto';
import { ClientFactory } from '@a2a-js/sdk/client';

/** TaskState.TASK_STATE_COMPLETED in the official client's numeric enum. */
const COMPLETED = 3;

/** SendMessage params in the official client's own (proto-like) shape. */
export function officialParams(text) {
  return {
    message: { messageId: randomUUID(), role: 1, parts: [{ content: { $case: 'text', value: text } }] },
  };
}

/** Connects the official client to the agent at `baseUrl` (fetches its card). */
export function connectOfficial(baseUrl) {
  return new ClientFactory().createFromUrl(baseUrl);
}

/** One unary call; throws unless the agent's completed task came back. */
export async function officialUnary(client) {
  const result = await client.sendMessage(officialParams('hi'));
  if (result?.status?.state !== COMPLETED) throw new Error('official client: task not completed');
}

/** Consumes one stream of `n` updates; resolves the number of items yielded. */
export async function officialStream(client, n) {
  let count = 0;
  for await (const item of client.sendMessageStream(officialParams(`stream ${n}`))) {
    if (item) count++;
  }
  return count;
}
