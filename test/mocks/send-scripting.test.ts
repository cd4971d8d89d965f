/**
 * A mock's `sendMessage` script answers streaming sends too (what `client.stream()` uses), unless
 * `sendStreamingMessage` has a script of its own — on msw and on the loopback server.
 */
import { describe, expect, it } from 'vitest';
import { A2AClient, type AgentEvent } from 'a2a-resilient';
import { failFirst, jsonRpcError, mockAgent, replyText, stream, type MockAgent } from 'a2a-resilient/mocks';
import { WAY_COMBOS, collect, uniqueName, useHarness, type Way } from '../client/harness.js';

const h = useHarness();

async function connect(way: Way, agent: MockAgent): Promise<A2AClient> {
  const served = await h.agent(way, agent);
  const client = await A2AClient.connect(served.url, { ...served.options, retry: false, circuitBreaker: false });
  h.defer(() => client.close());
  return client;
}

const texts = (events: AgentEvent[]): string => events.map((e) => e.text ?? '').join('');

describe.each(WAY_COMBOS)('sendMessage scripts apply to streaming sends (%s, v%s %s)', (way, version, binding) => {
  it("agent.on('sendMessage') answers client.stream() and client.invoke() alike", async () => {
    const agent = mockAgent({ name: uniqueName('script-on'), version, binding });
    agent.on('sendMessage', replyText('scripted answer'));
    const client = await connect(way, agent);
    const streamed = await collect(client.stream('hi'));
    expect(texts(streamed)).toBe('scripted answer');
    expect(streamed.at(-1)?.error).toBeUndefined();
    expect(texts(await client.invoke('hi'))).toBe('scripted answer');
    expect(agent.calls.map((c) => c.method)).toEqual(['sendStreamingMessage', 'sendMessage']);
  });

  it("a scripted failure reaches the stream as its terminal error; a queued once('sendMessage') serves the next stream", async () => {
    const agent = mockAgent({ name: uniqueName('script-fail'), version, binding });
    agent.on('sendMessage', failFirst(1, jsonRpcError(-32602, 'bad params'), replyText('fine')));
    agent.once('sendMessage', replyText('queued'));
    const client = await connect(way, agent);
    expect(texts(await collect(client.stream('first')))).toBe('queued');
    const failed = await collect(client.stream('second'));
    expect(failed).toHaveLength(1);
    // v1.0 REST carries the status (400); JSON-RPC and v0.3 REST bodies carry the code.
    expect(['-32602', '400']).toContain(failed[0]?.error?.code);
    expect(failed[0]?.error?.retryable).toBe(false);
    expect(texts(await collect(client.stream('third')))).toBe('fine');
  });

  it("agent.on('sendStreamingMessage') wins for streaming sends; sendMessage keeps its own", async () => {
    const agent = mockAgent({ name: uniqueName('script-both'), version, binding });
    agent.on('sendMessage', replyText('unary'));
    agent.on('sendStreamingMessage', stream([{ status: 'working', text: 'str' }, { artifact: 'eamed', append: true }, { status: 'completed' }]));
    const client = await connect(way, agent);
    const streamed = await collect(client.stream('hi'));
    expect(streamed.at(-1)).toMatchObject({ done: true, state: 'completed' });
    expect(streamed.some((e) => e.text === 'unary')).toBe(false);
    expect(texts(await client.invoke('hi'))).toBe('unary');
  });
});
