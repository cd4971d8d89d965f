import { describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError, type ClientOptions } from '../../src/index.js';
import { hang, httpError, jsonRpcError, mockAgent, replyText, type MockAgent } from '../../mocks/index.js';
import { WAY_COMBOS, rejection, uniqueName, useHarness, type Way } from './harness.js';
import type { ProtocolBinding, ProtocolVersion } from '../../src/protocol/model.js';

const h = useHarness();
const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };

async function setup(
  way: Way,
  version: ProtocolVersion,
  binding: ProtocolBinding,
  options: ClientOptions = {},
): Promise<{ agent: MockAgent; client: A2AClient }> {
  const agent = mockAgent({ name: uniqueName('headers'), version, binding });
  const served = await h.agent(way, agent);
  const client = await A2AClient.connect(served.url, { ...served.options, ...options });
  h.defer(() => client.close());
  return { agent, client };
}

describe.each(WAY_COMBOS)('request headers (%s, v%s %s)', (way, version, binding) => {
  it('sends static options.headers on every call', async () => {
    const { agent, client } = await setup(way, version, binding, { headers: { 'X-Team': 'payments', 'x-trace': 't-1' } });
    await client.sendMessage(hi);
    await client.getExtendedAgentCard();
    expect(agent.calls.map((c) => [c.method, c.headers['x-team'], c.headers['x-trace']])).toEqual([
      ['sendMessage', 'payments', 't-1'],
      ['getExtendedAgentCard', 'payments', 't-1'],
    ]);
  });

  it('calls an async headers function once per attempt, a retried request included', async () => {
    let n = 0;
    const headers = async (): Promise<Record<string, string>> => {
      n += 1;
      await Promise.resolve();
      return { authorization: `Bearer token-${n}` };
    };
    const { agent, client } = await setup(way, version, binding, { headers, retry: { baseDelayMs: 5, maxDelayMs: 10 } });
    expect(n).toBe(1); // the card fetch
    agent.reply(httpError(503, { retryAfter: 0 }), replyText('ok'));
    const result = await client.sendMessage(hi);
    expect(result.kind).toBe('message');
    expect(n).toBe(3);
    expect(agent.calls.map((c) => c.headers.authorization)).toEqual(['Bearer token-2', 'Bearer token-3']);
  });

  it('lets per-call headers override the client ones (names case-insensitive)', async () => {
    const { agent, client } = await setup(way, version, binding, { headers: () => ({ 'x-a': 'client', 'x-b': 'client' }) });
    await client.sendMessage(hi, { headers: { 'X-A': 'call', 'x-c': 'call' } });
    await client.sendMessage(hi);
    expect(agent.calls.map((c) => [c.headers['x-a'], c.headers['x-b'], c.headers['x-c']])).toEqual([
      ['call', 'client', 'call'],
      ['client', 'client', undefined],
    ]);
  });

  it(`sends A2A-Version ${version === '1.0' ? '1.0 on v1.0 calls' : 'only on v1.0 calls (none on v0.3)'}`, async () => {
    const { agent, client } = await setup(way, version, binding);
    await client.sendMessage(hi);
    await client.getExtendedAgentCard();
    const sent = agent.calls.map((c) => c.headers['a2a-version']);
    if (version === '1.0') expect(sent).toEqual(['1.0', '1.0']);
    else expect(sent).toEqual([undefined, undefined]);
  });
});

describe.each(WAY_COMBOS)('secrets stay out of errors (%s, v%s %s)', (way, version, binding) => {
  const SECRET = 'SECRET';

  function expectNoSecret(error: unknown): A2AClientError {
    expect(isA2AClientError(error)).toBe(true);
    if (!isA2AClientError(error)) throw new Error('not an A2AClientError');
    expect(error.message).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(JSON.stringify(error.toJSON())).not.toContain(SECRET);
    for (const attempt of error.attempts) expect(JSON.stringify(attempt.toJSON())).not.toContain(SECRET);
    return error;
  }

  const auth = { headers: { Authorization: `Bearer ${SECRET}` }, retry: false as const, circuitBreaker: false as const };

  it('an HTTP 500', async () => {
    const { agent, client } = await setup(way, version, binding, auth);
    agent.reply(httpError(500));
    const error = expectNoSecret(await rejection(client.sendMessage(hi)));
    expect([error.kind, error.status]).toEqual(['http', 500]);
    expect(agent.calls[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('a JSON-RPC error', async () => {
    const { agent, client } = await setup(way, version, binding, auth);
    agent.reply(jsonRpcError(-32603, 'internal failure'));
    const error = expectNoSecret(await rejection(client.sendMessage(hi)));
    if (binding === 'JSONRPC') expect([error.kind, error.code]).toEqual(['json-rpc', -32603]);
    else expect([error.kind, error.status]).toEqual(['http', 500]);
  });

  it('a timeout', async () => {
    const { agent, client } = await setup(way, version, binding, auth);
    agent.reply(hang());
    const error = expectNoSecret(await rejection(client.sendMessage(hi, { timeouts: { totalMs: 150 } })));
    expect(error.kind).toBe('deadline-exceeded');
  });
});

describe.each(WAY_COMBOS)('a header HTTP cannot carry (%s, v%s %s)', (way, version, binding) => {
  const SECRET = 'tok-3f9a\r\nx-injected: 1';

  function expectRefused(error: unknown): A2AClientError {
    expect(isA2AClientError(error)).toBe(true);
    if (!isA2AClientError(error)) throw new Error('not an A2AClientError');
    expect([error.kind, error.retryable, error.phase]).toEqual(['unsupported', false, 'before-send']);
    expect(error.field).toBe('headers.authorization');
    expect(JSON.stringify(error)).not.toContain('tok-3f9a');
    return error;
  }

  it('from a headers function: fails once without sending, is not retried and does not count against the breaker', async () => {
    let bad = false;
    const headers = (): Record<string, string> => ({ authorization: bad ? SECRET : 'Bearer good' });
    const { agent, client } = await setup(way, version, binding, { headers, circuitBreaker: { consecutiveFailures: 2 } });
    bad = true;
    for (let i = 0; i < 4; i++) {
      const error = expectRefused(await rejection(client.sendMessage(hi)));
      expect(error.attempts).toHaveLength(1);
    }
    expect(agent.calls).toHaveLength(0);
    bad = false;
    // The breaker stayed closed: the next good call goes through.
    await client.sendMessage(hi);
    expect(agent.calls.map((c) => c.headers.authorization)).toEqual(['Bearer good']);
  });

  it.each(['Connection', 'keep-alive', 'Transfer-Encoding', 'upgrade', 'expect', 'content-length'])(
    'a connection or framing header (%s) fails as unsupported without sending, once, and never opens the breaker',
    async (name) => {
      const { agent, client } = await setup(way, version, binding, { circuitBreaker: { consecutiveFailures: 1 } });
      for (let i = 0; i < 3; i++) {
        const error = (await rejection(client.sendMessage(hi, { headers: { [name]: name === 'content-length' ? '5' : 'x-keep' } }))) as A2AClientError;
        expect([error.kind, error.retryable, error.phase, error.field, error.attempts.length]).toEqual(['unsupported', false, 'before-send', `headers.${name.toLowerCase()}`, 1]);
      }
      expect(agent.calls).toHaveLength(0);
      await client.sendMessage(hi);
      expect(agent.calls).toHaveLength(1);
    },
  );

  it('per call: the call fails, the client keeps working', async () => {
    const { agent, client } = await setup(way, version, binding);
    expectRefused(await rejection(client.getTask({ id: 't-1' }, { headers: { Authorization: SECRET } })));
    expect(agent.calls).toHaveLength(0);
  });
});

describe('a header HTTP cannot carry, given as a static record', () => {
  it('is refused when the client is built, naming the header but not the value', () => {
    const card = mockAgent({ name: 'static-bad', version: '1.0', binding: 'JSONRPC' }).card;
    let thrown: unknown;
    try {
      new A2AClient(card, { headers: { 'X-Api-Key': 'k-\u2603-secret' } });
    } catch (error) {
      thrown = error;
    }
    expect(isA2AClientError(thrown) && [thrown.kind, thrown.field]).toEqual(['unsupported', 'headers.x-api-key']);
    expect(JSON.stringify(thrown) + String(thrown)).not.toContain('secret');
  });
});
