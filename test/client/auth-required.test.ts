/**
 * A task that stops in `auth-required` is interrupted, not failed: through `stream()` and `invoke()`
 * it ends with an event that carries the state, the agent's text and the task's ids, and is not a
 * terminal error — the caller can get the credentials and continue the same task. Both versions,
 * real loopback agents.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isTerminalError, type AgentEvent } from '../../src/index.js';
import { mockAgent, replyTask, stream, type MockServer } from '../../mocks/index.js';

const servers: MockServer[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe.each(['1.0', '0.3'] as const)('auth-required (A2A %s)', (version) => {
  async function serve(configure: (agent: ReturnType<typeof mockAgent>) => void): Promise<{ client: A2AClient; agent: ReturnType<typeof mockAgent> }> {
    const agent = mockAgent({ name: `auth-required-${version.replace('.', '')}-${Math.random().toString(36).slice(2, 7)}`, version, binding: 'JSONRPC' });
    configure(agent);
    const server = await agent.listen();
    servers.push(server);
    const client = await A2AClient.connect(server.url);
    clients.push(client);
    return { client, agent };
  }

  it('stream(): the last event has state auth-required, the agent’s text and the ids; it is not a terminal error', async () => {
    const { client } = await serve((a) =>
      a.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'Looking up your account…' }, { status: 'auth-required', text: 'Sign in to the bank: https://bank.example/consent' }])),
    );
    const events: AgentEvent[] = [];
    for await (const e of client.stream('balance?')) events.push(e);
    const last = events.at(-1);
    expect(last).toMatchObject({ state: 'auth-required', done: true, text: 'Sign in to the bank: https://bank.example/consent', taskId: expect.any(String), contextId: expect.any(String) });
    expect(events.some(isTerminalError)).toBe(false);
    expect(events.some((e) => e.error !== undefined)).toBe(false);
  });

  it('invoke(): the caller continues the same task after acting on auth-required', async () => {
    const { client, agent } = await serve((a) => {
      a.once('sendMessage', replyTask({ state: 'auth-required', statusMessage: 'Sign in first' }));
      a.once('sendMessage', replyTask({ state: 'completed', artifacts: ['balance: 42'] }));
    });
    const first = await client.invoke('balance?');
    const waiting = first.find((e) => e.state === 'auth-required');
    expect(waiting && isTerminalError(waiting)).toBe(false);
    const second = await client.invoke({ parts: [{ kind: 'text', text: 'signed in' }], taskId: waiting?.taskId, contextId: waiting?.contextId });
    expect(second.at(-1)).toMatchObject({ done: true, text: 'balance: 42', taskId: waiting?.taskId });
    const sent = agent.callsOf('sendMessage').map((c) => JSON.stringify(c.params));
    expect(sent[1]).toContain(waiting?.taskId ?? 'missing');
  });
});
