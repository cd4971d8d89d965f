/**
 * End-to-end stream resume through the real A2AClient against a loopback mock agent whose stream
 * drops mid-way: the client resubscribes, delivers every artifact chunk and status once, and never
 * repeats the send.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ResilienceEvent, type StreamEvent } from '../../src/index.js';
import { mockAgent, stream } from '../../mocks/index.js';
import type { ProtocolVersion } from '../../src/protocol/model.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});
let seq = 0;

describe.each<ProtocolVersion>(['1.0', '0.3'])('stream resume end to end (v%s JSON-RPC, undici)', (version) => {
  it('drops after 2 events, resubscribes, no lost and no duplicated events, one send', async () => {
    const agent = mockAgent({ name: `e2e-resume-${++seq}-${Math.random().toString(36).slice(2, 8)}`, version, binding: 'JSONRPC' });
    agent.on(
      'sendStreamingMessage',
      stream([{ status: 'working' }, { artifact: 'one ' }, { artifact: { artifactId: 'artifact-1', parts: [{ kind: 'text', text: 'two' }] }, append: true }, { status: 'completed' }], { dropAfter: 2 }),
    );
    const server = await agent.listen();
    cleanups.push(server.close);
    const events: ResilienceEvent[] = [];
    const client = await A2AClient.connect(server.url, { onEvent: (e) => events.push(e), retry: { baseDelayMs: 10 } });
    cleanups.unshift(() => client.close());
    const got: StreamEvent[] = [];
    for await (const e of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } }, { timeouts: { totalMs: 5_000 } })) got.push(e);
    const text = got.flatMap((e) => (e.kind === 'artifact-update' ? e.artifact.parts : [])).map((p) => (p.kind === 'text' ? p.text : '')).join('');
    expect(text).toBe('one two');
    const states = got.flatMap((e) => (e.kind === 'status-update' ? [e.status.state] : e.kind === 'task' ? [e.status.state] : []));
    expect(states).toEqual(['submitted', 'working', 'completed']);
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(1);
    expect(agent.callsOf('subscribeToTask').length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.type === 'resubscribe').length).toBeGreaterThanOrEqual(1);
  });
});
