/**
 * Every retryable source, end to end through A2AClient on both engines: fail twice, then succeed —
 * and the fatal ones reach the agent exactly once. Business failures never open the breaker.
 */
import { describe, expect, it } from 'vitest';
import { useE2E, uniqueName, type Way } from './e2e-setup.js';
import { A2AClient, isA2AClientError, type ClientOptions, type ResilienceEvent } from '../../src/index.js';
import {
  delay,
  failFirst,
  failedTask,
  hang,
  httpError,
  jsonRpcError,
  mockAgent,
  replyText,
  retryInfo,
  type MockAgent,
  type Scenario,
} from '../../mocks/index.js';

const e2e = useE2E();
const unique = uniqueName;
const connect = (way: Way, agent: MockAgent, extra: ClientOptions): Promise<A2AClient> =>
  e2e.serve(way, agent, { retry: { baseDelayMs: 10, budget: false }, ...extra });

const send = (client: A2AClient) => client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });

const RETRYABLE: Array<[string, '1.0' | '0.3', Scenario, string]> = [
  ['HTTP 503 + Retry-After: 0', '1.0', httpError(503, { retryAfter: 0 }), 'hint:delay(header:retry-after)'],
  ['429 problem+json retry_after_ms', '1.0', httpError(429, { problem: { title: 'slow down', is_retriable: true, retry_after_ms: 20 } }), 'hint:delay(problem)'],
  ['JSON-RPC -32603 with data.retryable / retryAfter', '0.3', jsonRpcError(-32603, 'internal', { retryable: true, retryAfter: 0.02 }), 'hint:delay'],
  ['JSON-RPC -32603 with google.rpc.RetryInfo', '1.0', jsonRpcError(-32603, 'internal', [retryInfo(0.02)]), 'hint:delay'],
];

const FATAL: Array<[string, Scenario, Record<string, unknown>]> = [
  ['TaskNotFound', jsonRpcError(-32001, 'no such task'), { kind: 'json-rpc', code: -32001, a2aName: 'TaskNotFound' }],
  ['-32602 invalid params', jsonRpcError(-32602, 'bad params'), { kind: 'json-rpc', code: -32602 }],
  ['problem+json is_retriable: false (even on 503)', httpError(503, { problem: { title: 'down for good', is_retriable: false } }), { kind: 'http', status: 503 }],
  ['HTTP 400', httpError(400), { kind: 'http', status: 400 }],
];

describe.each<Way>(['msw+fetch', 'loopback+undici'])('retry sources end to end (%s)', (way) => {
  it.each(RETRYABLE)('%s: fails twice, then succeeds with the same messageId', async (_, version, failure, reason) => {
    const agent = mockAgent({ name: unique('src'), version, binding: 'JSONRPC' });
    agent.on('sendMessage', failFirst(2, failure, replyText('ok')));
    const events: ResilienceEvent[] = [];
    const client = await connect(way, agent, { onEvent: (e) => events.push(e) });
    const result = await send(client);
    expect(result.kind).toBe('message');
    const calls = agent.callsOf('sendMessage');
    expect(calls).toHaveLength(3);
    const ids = calls.map((c) => JSON.stringify(c.params).match(/"messageId":"([^"]+)"/)?.[1]);
    expect(new Set(ids).size).toBe(1);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries).toHaveLength(2);
    for (const r of retries) expect(r.type === 'retry' && r.reason.startsWith(reason)).toBe(true);
  });

  it('with retry: { ambiguous: true } a read timeout, then an answer: the send is repeated with the same messageId', async () => {
    const agent = mockAgent({ name: unique('src-read'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', failFirst(1, hang(), replyText('late but fine')));
    const client = await connect(way, agent, { timeouts: { connectMs: 150, readMs: 150 }, retry: { baseDelayMs: 10, budget: false, ambiguous: true } });
    const result = await send(client);
    expect(result.kind === 'message' && result.parts[0]).toMatchObject({ kind: 'text', text: 'late but fine' });
    const ids = agent.callsOf('sendMessage').map((c) => JSON.stringify(c.params).match(/"messageId":"([^"]+)"/)?.[1]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('without the lookup a read timeout on a send is not repeated (the agent may be running it)', async () => {
    const agent = mockAgent({ name: unique('src-amb'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', failFirst(1, hang(), replyText('x')));
    const client = await connect(way, agent, { timeouts: { connectMs: 150, readMs: 150 }, retry: { lookUpSends: false } });
    const error: unknown = await send(client).catch((e: unknown) => e);
    // Not repeated, yet a later repeat may succeed (retryable) at the risk of running it twice (ambiguous).
    expect(isA2AClientError(error) && [error.kind, error.retryable, error.ambiguous]).toEqual(['read-timeout', true, true]);
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
  });

  it.each(FATAL)('%s is never retried: exactly one call', async (_, failure, expected) => {
    const agent = mockAgent({ name: unique('fatal'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', failure);
    const client = await connect(way, agent, {});
    const error: unknown = await send(client).catch((e: unknown) => e);
    expect(error).toMatchObject({ ...expected, retryable: false });
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
  });

  it('a failed task is a result, not an error: one call, one flow_error event', async () => {
    const agent = mockAgent({ name: unique('fatal-task'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', failedTask({ error_code: 'E1', error_message: 'nope' }));
    const client = await connect(way, agent, {});
    const events = await client.invoke('hi');
    expect(events.map((e) => [e.object, e.error?.type, e.error?.code])).toEqual([['error', 'flow_error', 'E1']]);
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
  });

  it('business failures never open the breaker', async () => {
    const agent = mockAgent({ name: unique('biz'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', delay(1, failFirst(3, jsonRpcError(-32602, 'bad'), failFirst(3, failedTask({ error_code: 'E' }), replyText('ok')))));
    const client = await connect(way, agent, { circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } });
    for (let i = 0; i < 3; i++) await send(client).catch((e: unknown) => e);
    for (let i = 0; i < 3; i++) await client.invoke('x');
    expect(await send(client)).toMatchObject({ kind: 'message' });
    expect(agent.callsOf('sendMessage')).toHaveLength(7);
  });
});
