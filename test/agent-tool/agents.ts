/**
 * Shared set-up of the tool tests: a mock agent on real loopback, a client connected to it, both
 * closed after each test; and a wait for the cancel the agent receives.
 */
import { afterEach, expect } from 'vitest';
import { z } from 'zod';
import { A2AClient, type ClientOptions } from '../../src/index.js';
import { mockAgent, type MockAgent, type MockAgentOptions } from '../../mocks/index.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

let counter = 0;

/** A mock agent served on 127.0.0.1 and a client connected to it (closed after the test). */
export async function agentAndClient(options: Partial<MockAgentOptions> = {}, clientOptions: ClientOptions = {}): Promise<{ agent: MockAgent; client: A2AClient }> {
  counter += 1;
  const agent = mockAgent({ name: `tool-agent-${counter}`, version: '1.0', binding: 'JSONRPC', ...options });
  const server = await agent.listen();
  cleanups.push(() => server.close());
  const client = await A2AClient.connect(server.url, clientOptions);
  cleanups.push(() => client.close());
  return { agent, client };
}

/** The task id a cancelTask call names (v1.0 `{ id }`, v0.3 `{ id }`). */
const CancelParams = z.object({ id: z.string() });

/** Waits until the agent received a cancelTask; resolves with the task ids it named. */
export async function cancelsReceived(agent: MockAgent, withinMs = 3_000): Promise<string[]> {
  const until = Date.now() + withinMs;
  while (agent.callsOf('cancelTask').length === 0) {
    if (Date.now() > until) expect.fail(`the agent received no cancelTask within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return agent.callsOf('cancelTask').map((c) => CancelParams.parse(c.params).id);
}

/** The text the agent received in each send, in order. */
export function sentTexts(agent: MockAgent): string[] {
  const Sent = z.object({ message: z.object({ parts: z.array(z.object({ text: z.string().optional() }).passthrough()) }).passthrough() });
  return agent.calls.filter((c) => c.method === 'sendMessage' || c.method === 'sendStreamingMessage').map((c) => Sent.parse(c.params).message.parts.map((p) => p.text ?? '').join(''));
}

/** Generous: CI is a busy 2-core machine. */
export const PROMPT_MS = 2_000;
