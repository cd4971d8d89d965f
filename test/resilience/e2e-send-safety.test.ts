/**
 * Sends are repeated only when it is safe, end to end through A2AClient on both engines: a bare
 * −32603 / −32006 / 500 / 502 / 504 on a send reaches the agent once (a read is retried) and ends
 * `retryable` (a later repeat may succeed) and `ambiguous` (the agent may have acted); a bare 429 or
 * 503 is a refusal and is retried, a server hint or a refused connection is retried, a server that
 * reads the request and resets is not (unless the call opts in with `retry: { ambiguous: true }`),
 * and a per-call `retry` overrides `retry: false`.
 */
import { describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError, type ClientOptions } from '../../src/index.js';
import { failFirst, httpError, jsonRpcError, mockAgent, replyTask, replyText, reset, type MockAgent, type Scenario } from '../../mocks/index.js';
import { refusedPort, startFaultServer } from '../helpers/fault-server.js';
import { useE2E, uniqueName, WAYS } from './e2e-setup.js';
import { rejection } from './fixtures.js';

const e2e = useE2E();
// These tests pin the classification of one send; finding out what happened to an ambiguous one
// (`lookUpSends`, on by default) is specified in test/resilience/send-lookup.test.ts.
const fast = { baseDelayMs: 5, maxDelayMs: 10, budget: false as const, lookUpSends: false };
const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };

const BARE: Array<[string, Scenario]> = [
  ['a bare JSON-RPC −32603', jsonRpcError(-32603, 'internal')],
  ['a bare JSON-RPC −32006', jsonRpcError(-32006, 'invalid agent response')],
  ['an HTML HTTP 500', httpError(500)],
  ['HTTP 502', httpError(502)],
  ['HTTP 504', httpError(504)],
  ['HTTP 500 with informational RateLimit headers (quota left)', httpError(500, { headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '30' } })],
  ['HTTP 500 with an unspent structured RateLimit quota', httpError(500, { headers: { ratelimit: '"default";r=99;t=0' } })],
];

/** Bare refusals (RFC 9110 503, RFC 6585 429, no delay): the server did not process the send. */
const REFUSALS: Array<[string, Scenario]> = [
  ['a bare HTTP 503', httpError(503)],
  ['a bare HTTP 429', httpError(429)],
  ['a bare HTTP 503 with a problem+json body', httpError(503, { problem: { title: 'overloaded' } })],
];

async function agentWith(way: (typeof WAYS)[number], setup: (agent: MockAgent) => void, retry: ClientOptions['retry'] = fast): Promise<{ agent: MockAgent; client: A2AClient }> {
  const agent = mockAgent({ name: uniqueName('safety'), version: '1.0', binding: 'JSONRPC' });
  setup(agent);
  const client = await e2e.serve(way, agent, { retry, circuitBreaker: false });
  return { agent, client };
}

describe.each(WAYS)('send retry safety (%s)', (way) => {
  it.each(BARE)('%s on sendMessage reaches the agent once; on getTask it is retried', async (_label, failure) => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', failure).on('getTask', failFirst(2, failure, replyTask())));
    const error = await rejection(client.sendMessage(hi));
    // Not repeated (it may have run), yet a later repeat may succeed: retryable, and ambiguous says the risk.
    expect([error.kind, error.retryable, error.ambiguous, error.attempts.length]).toEqual([error.kind === 'json-rpc' ? 'json-rpc' : 'http', true, true, 1]);
    expect(agent.callsOf('sendMessage')).toHaveLength(1);

    const task = await client.getTask({ id: 'task-1' });
    expect(task.status.state).toBe('completed');
    expect(agent.callsOf('getTask')).toHaveLength(3);
  });

  it.each(BARE)('%s on the send that opens a stream reaches the agent once', async (_label, failure) => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendStreamingMessage', failure));
    const events = [];
    for await (const event of client.stream('hi')) events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]?.error).toMatchObject({ retryable: true, ambiguous: true });
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(1);
  });

  it.each(REFUSALS)('%s on sendMessage is repeated: the send was refused unprocessed', async (_label, refusal) => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', failFirst(2, refusal, replyText('ok'))));
    expect((await client.sendMessage(hi)).kind).toBe('message');
    expect(agent.callsOf('sendMessage')).toHaveLength(3);
  });

  it.each(REFUSALS)('%s on every attempt: maxAttempts sends, then retryable and not ambiguous', async (_label, refusal) => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', refusal));
    const error = await rejection(client.sendMessage(hi));
    expect([error.kind, error.retryable, error.ambiguous, error.attempts.length]).toEqual(['http', true, false, 3]);
    expect(agent.callsOf('sendMessage')).toHaveLength(3);
  });

  it.each(REFUSALS)('%s on the send that opens a stream is repeated; stream() ends retryable, not ambiguous, when it persists', async (_label, refusal) => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendStreamingMessage', refusal));
    const events = [];
    for await (const event of client.stream('hi')) events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]?.error).toMatchObject({ retryable: true });
    expect(events[0]?.error?.ambiguous).toBe(false);
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(3);
  });

  it('retry: { ambiguous: true } on the call repeats a bare −32603 send with the same messageId', async () => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', failFirst(2, jsonRpcError(-32603, 'internal'), replyText('ok'))));
    const result = await client.sendMessage(hi, { retry: { ...fast, ambiguous: true } });
    expect(result.kind).toBe('message');
    const ids = agent.callsOf('sendMessage').map((c) => JSON.stringify(c.params).match(/"messageId":"([^"]+)"/)?.[1]);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it.each([
    ['data.retryable: true', jsonRpcError(-32603, 'internal', { retryable: true })],
    ['a Retry-After on 503', httpError(503, { retryAfter: 0 })],
    ['a Retry-After on 429', httpError(429, { retryAfter: 0 })],
    ['problem+json is_retriable: true', httpError(500, { problem: { title: 'flaky', is_retriable: true } })],
  ])('a send the server asks to repeat (%s) is repeated', async (_label, failure) => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', failFirst(1, failure, replyText('ok'))));
    expect((await client.sendMessage(hi)).kind).toBe('message');
    expect(agent.callsOf('sendMessage')).toHaveLength(2);
  });

  it('a fatal status keeps its verdict whatever an unspent RateLimit quota says; reads too', async () => {
    const fatal = httpError(400, { headers: { 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1' } });
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', fatal).on('getTask', fatal));
    const error = await rejection(client.sendMessage(hi));
    expect([error.kind, error.status, error.retryable]).toEqual(['http', 400, false]);
    await rejection(client.getTask({ id: 'task-1' }));
    expect([agent.callsOf('sendMessage').length, agent.callsOf('getTask').length]).toEqual([1, 1]);
  });

  it('a server that reads the send and drops the connection gets it once; with ambiguous: true twice', async () => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', failFirst(1, reset(), replyText('ok'))));
    const error = await rejection(client.sendMessage(hi));
    expect([error.kind, error.retryable, error.ambiguous]).toEqual(['connection', true, true]);
    expect(error.phase).toBe('after-send');
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
    agent.clear();
    agent.on('sendMessage', failFirst(1, reset(), replyText('ok')));
    expect((await client.sendMessage(hi, { retry: { ...fast, ambiguous: true } })).kind).toBe('message');
    expect(agent.callsOf('sendMessage')).toHaveLength(2);
  });

  it('a send that could not connect (refused) is repeated: it never reached the agent', async () => {
    const port = await refusedPort();
    const card = { name: uniqueName('refused'), supportedInterfaces: [{ url: `http://127.0.0.1:${port}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
    const client = new A2AClient(card, { retry: { ...fast, maxAttempts: 3 }, circuitBreaker: false, ...(way === 'msw+fetch' ? { fetch: 'global' as const } : {}) });
    try {
      const error = await rejection(client.sendMessage(hi));
      expect(error.kind).toBe('connection');
      expect(error.attempts.map((a: A2AClientError) => [a.kind, a.reason, a.phase])).toEqual(Array(3).fill(['connection', 'refused', 'before-send']));
    } finally {
      await client.close();
    }
  });
});

describe.each(WAYS)('a per-call retry overrides the client (%s)', (way) => {
  it('client retry: false, call retry: { maxAttempts: 3 } → three attempts', async () => {
    const { agent, client } = await agentWith(way, (a) => a.on('sendMessage', httpError(503, { retryAfter: 0 })), false);
    const error = await rejection(client.sendMessage(hi, { retry: { maxAttempts: 3, budget: false } }));
    expect(error.attempts).toHaveLength(3);
    expect(agent.callsOf('sendMessage')).toHaveLength(3);
  });

  it('client retry: false and no call override → one attempt; call retry: false over a retrying client → one attempt', async () => {
    const off = await agentWith(way, (a) => a.on('sendMessage', httpError(503, { retryAfter: 0 })), false);
    await rejection(off.client.sendMessage(hi));
    expect(off.agent.callsOf('sendMessage')).toHaveLength(1);
    const on = await agentWith(way, (a) => a.on('sendMessage', httpError(503, { retryAfter: 0 })), { ...fast, maxAttempts: 5 });
    await rejection(on.client.sendMessage(hi, { retry: false }));
    expect(on.agent.callsOf('sendMessage')).toHaveLength(1);
  });
});

describe('a hostile server that accepts, reads the request and resets (undici, raw socket)', () => {
  it('is after-send: the send is not repeated, a read is', async () => {
    const server = await startFaultServer();
    let requests = 0;
    server.route('/rpc', (req) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
        req.socket.resetAndDestroy();
      });
    });
    const card = { name: uniqueName('hostile'), supportedInterfaces: [{ url: `${server.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
    const client = new A2AClient(card, { retry: { ...fast, maxAttempts: 3 }, circuitBreaker: false });
    try {
      const error = await rejection(client.sendMessage(hi));
      expect([error.kind, error.phase, error.retryable, error.ambiguous]).toEqual(['connection', 'after-send', true, true]);
      expect(requests).toBe(1);
      const read = await rejection(client.getTask({ id: 't' }));
      expect(read.attempts.map((a) => a.phase)).toEqual(['after-send', 'after-send', 'after-send']);
      expect(requests).toBe(4);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('when the deadline ends a call, the error says whether the send reached the agent', () => {
  const engines = [
    ['undici', {}],
    ['fetch', { fetch: 'global' as const }],
  ] as const;

  it.each(engines)('%s: a server that reads the send and never answers: deadline-exceeded, after-send, the cut attempt kept', async (_name, engine) => {
    const server = await startFaultServer();
    let requests = 0;
    server.route('/rpc', (req) => {
      req.resume();
      req.on('end', () => {
        requests += 1;
      });
    });
    const card = { name: uniqueName('silent'), supportedInterfaces: [{ url: `${server.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
    const client = new A2AClient(card, { ...engine, retry: fast, circuitBreaker: false, timeouts: { totalMs: 300 } });
    try {
      const error = await rejection(client.sendMessage(hi));
      expect([error.kind, error.phase, error.method]).toEqual(['deadline-exceeded', 'after-send', 'sendMessage']);
      expect(error.attempts.map((a) => [a.kind, a.phase, a.method])).toEqual([['deadline-exceeded', 'after-send', 'sendMessage']]);
      expect(requests).toBe(1);
      let streamError: unknown;
      try {
        for await (const _event of client.sendStreamingMessage(hi)) void _event;
      } catch (e) {
        streamError = e;
      }
      expect(isA2AClientError(streamError) && [streamError.kind, streamError.phase, streamError.attempts.map((a) => a.phase)]).toEqual(['deadline-exceeded', 'after-send', ['after-send']]);
      expect(requests).toBe(2);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a headers function that never settles: deadline-exceeded with no attempt and no phase claimed; nothing sent', async () => {
    const server = await startFaultServer();
    const card = { name: uniqueName('no-headers'), supportedInterfaces: [{ url: `${server.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
    const client = new A2AClient(card, { headers: () => new Promise<Record<string, string>>(() => undefined), retry: fast, circuitBreaker: false, timeouts: { totalMs: 200 } });
    try {
      const error = await rejection(client.sendMessage(hi));
      expect([error.kind, error.phase, error.attempts.length]).toEqual(['deadline-exceeded', undefined, 0]);
      expect(server.acceptedSockets).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a Retry-After longer than the time left gives up at once reporting the server delay, not the clamped one', async () => {
    const { client } = await agentWith('loopback+undici', (a) => a.on('sendMessage', httpError(503, { retryAfter: 3600 })));
    const t0 = performance.now();
    const error = await rejection(client.sendMessage(hi, { timeouts: { totalMs: 5_000 } }));
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect([error.kind, error.status, error.retryable, error.retryAfterMs]).toEqual(['http', 503, true, 3_600_000]);
  });
});
