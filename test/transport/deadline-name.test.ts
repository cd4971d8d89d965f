/**
 * A `deadline-exceeded` names the setting the caller actually used — the client's
 * `options.timeouts.totalMs`, a call's `call.timeouts.totalMs`, `fanOut`'s `totalMs`, the CLI's
 * `--timeout` — against a real loopback agent that never answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, fanOut, isA2AClientError } from '../../src/index.js';
import { main } from '../../src/cli/cli.js';
import { hang, mockAgent, type MockServer } from '../../mocks/index.js';

const servers: MockServer[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function hangingAgent(): Promise<string> {
  const agent = mockAgent({ name: 'slow', version: '1.0', binding: 'JSONRPC' });
  agent.on('sendMessage', hang());
  agent.on('sendStreamingMessage', hang());
  const server = await agent.listen();
  servers.push(server);
  return server.url;
}

async function connect(url: string, options: Parameters<typeof A2AClient.connect>[1] = {}): Promise<A2AClient> {
  // Discovery gets its own generous deadline (the third argument), so a short client deadline bounds only the call under test.
  const client = await A2AClient.connect(url, { retry: false, ...options }, { timeouts: { totalMs: 10_000 } });
  clients.push(client);
  return client;
}

const message = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] } };

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  if (!isA2AClientError(error)) throw new Error(`expected an A2AClientError, got ${String(error)}`);
  expect(error.kind).toBe('deadline-exceeded');
  return error;
}

describe('deadline-exceeded names the setting it came from', () => {
  it('the client option: options.timeouts.totalMs', async () => {
    const client = await connect(await hangingAgent(), { timeouts: { totalMs: 150 } });
    expect((await failure(client.sendMessage(message))).message).toContain('options.timeouts.totalMs');
  });

  it('a per-call override: call.timeouts.totalMs (also on a stream, through the event API)', async () => {
    const client = await connect(await hangingAgent());
    expect((await failure(client.sendMessage(message, { timeouts: { totalMs: 150 } }))).message).toContain('call.timeouts.totalMs');
    const events = await client.invoke('hi', { timeouts: { totalMs: 150 } });
    expect(events.at(-1)?.error?.message).toContain('call.timeouts.totalMs');
  });

  it('fanOut totalMs, when it is the shortest; the call\'s own when that is', async () => {
    const url = await hangingAgent();
    const client = await connect(url);
    const byFanOut = await fanOut([{ client, input: 'hi' }], { totalMs: 150, minResults: 0 });
    expect(byFanOut.failed[0]?.error.message).toContain('fanOut totalMs');
    const byCall = await fanOut([{ client, input: 'hi', call: { timeouts: { totalMs: 100 } } }], { totalMs: 5_000, minResults: 0 });
    expect(byCall.failed[0]?.error.message).toContain('call.timeouts.totalMs');
    const short = await connect(url, { timeouts: { totalMs: 100 } });
    const byClient = await fanOut([{ client: short, input: 'hi' }], { totalMs: 5_000, minResults: 0 });
    expect(byClient.failed[0]?.error.message).toContain('options.timeouts.totalMs');
  });

  it("the CLI's --timeout", async () => {
    const url = await hangingAgent();
    const stderr: string[] = [];
    expect(await main(['send', url, 'hi', '--timeout', '150', '--retries', '0'], { out: () => undefined, err: (l) => stderr.push(l) })).toBe(1);
    expect(stderr.join('\n')).toContain('(--timeout)');
    expect(stderr.join('\n')).not.toContain('timeouts.totalMs');
  });
});
