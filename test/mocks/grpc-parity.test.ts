/**
 * A coordinator tested against a GRPC mock sees what it sees against an HTTP one: every scenario is
 * played by a v1.0 HTTP+JSON mock and a v1.0 GRPC mock (each on its loopback server) and the real
 * client's outcome — result, or error kind / status / A2A name / verdict / retry delay, attempts,
 * calls the agent received — must be the same. Where gRPC differs by design (gRFC A6), the test says so.
 */
import { describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type ClientOptions } from 'a2a-resilient';
import { failFirst, failedTask, hang, httpError, jsonRpcError, mockAgent, replyTask, replyText, reset, retryInfo, type MockAgent } from 'a2a-resilient/mocks';
import { uniqueName } from '../client/harness.js';

const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };
const fast = { baseDelayMs: 5, maxDelayMs: 10, budget: false as const };

type Binding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
type Act = (c: A2AClient) => Promise<unknown>;

/** What a user's code can observe of one call. */
async function observe(binding: Binding, setup: (a: MockAgent) => void, act: Act, options: ClientOptions = {}): Promise<Record<string, unknown>> {
  const agent = mockAgent({ name: uniqueName('parity'), version: '1.0', binding });
  setup(agent);
  const server = await agent.listen();
  const client = await A2AClient.connect(server.url, { retry: fast, circuitBreaker: false, ...options });
  try {
    const result: unknown = await act(client);
    const last = Array.isArray(result) ? (result.at(-1) as { error?: unknown; state?: unknown } | undefined) : undefined;
    const ok = last ? (last.error ?? last.state) : (result as { kind?: string }).kind;
    return { ok, calls: agent.calls.length };
  } catch (e: unknown) {
    if (!isA2AClientError(e)) throw e;
    const { kind, status, a2aName, reason, phase, retryable, ambiguous, retryAfterMs } = e;
    return { kind, status, a2aName, reason, phase, retryable, ambiguous, retryAfterMs, attempts: e.attempts.length, calls: agent.calls.length };
  } finally {
    await client.close();
    await server.close();
  }
}

const send: Act = (c) => c.sendMessage(hi);
const SAME: Array<[string, (a: MockAgent) => void, Act, ClientOptions?]> = [
  ['503 with Retry-After: 0 twice, then a reply (failFirst)', (a) => a.on('sendMessage', failFirst(2, httpError(503, { retryAfter: 0 }), replyText('ok'))), send],
  ['503 problem+json retry_after_ms twice, then a reply', (a) => a.on('sendMessage', failFirst(2, httpError(503, { problem: { title: 'busy', retry_after_ms: 50 } }), replyText('ok'))), send],
  ['503 with a Retry-After longer than the time left', (a) => a.on('sendMessage', httpError(503, { retryAfter: 30 })), (c) => c.sendMessage(hi, { timeouts: { totalMs: 2_000 } })],
  ['a bare 429 (a refusal: repeated)', (a) => a.on('sendMessage', httpError(429)), send],
  ['a bare HTML 500 on a send (ambiguous)', (a) => a.on('sendMessage', httpError(500)), send],
  ['a bare 504 on a send', (a) => a.on('sendMessage', httpError(504)), send],
  ['a 400 with an unspent RateLimit quota (fatal)', (a) => a.on('sendMessage', httpError(400, { headers: { 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '1' } })), send],
  ['a 500 problem+json is_retriable: true, then a reply', (a) => a.on('sendMessage', failFirst(1, httpError(500, { problem: { title: 'flaky', is_retriable: true } }), replyText('ok'))), send],
  ['JSON-RPC −32602 (fatal)', (a) => a.on('sendMessage', jsonRpcError(-32602, 'bad params')), send],
  ['JSON-RPC −32603 on a send (ambiguous)', (a) => a.on('sendMessage', jsonRpcError(-32603, 'internal')), send],
  ['JSON-RPC −32603 with a RetryInfo detail, then a reply', (a) => a.on('sendMessage', failFirst(1, jsonRpcError(-32603, 'internal', [retryInfo(0.05)]), replyText('ok'))), send],
  ['TaskNotFound on getTask', () => undefined, (c) => c.getTask({ id: 'nope' })],
  ['500 twice on getTask (a read: retried)', (a) => a.on('getTask', failFirst(2, httpError(500), replyTask())), (c) => c.getTask({ id: 't' })],
  ['reset() on a send (after send: not repeated)', (a) => a.on('sendMessage', reset()), send],
  ['reset() once on getTask (retried)', (a) => a.on('getTask', failFirst(1, reset(), replyTask())), (c) => c.getTask({ id: 't' })],
  ['hang() past readMs', (a) => a.on('sendMessage', hang()), (c) => c.sendMessage(hi, { timeouts: { readMs: 150, totalMs: 3_000 } })],
  ['failedTask() answering invoke()', (a) => a.reply(failedTask({ error_type: 'flow_error', error_code: 'REMOTE_VALIDATION_FAILED', error_message: 'bad input' })), (c) => c.invoke('hi')],
  ['failedTask() answering stream()', (a) => a.reply(failedTask({ error_type: 'flow_error', error_code: 'E42', error_message: 'bad input' })), async (c) => {
    const events = [];
    for await (const e of c.stream('hi')) events.push(e);
    return events;
  }],
];

describe('a GRPC mock gives the client the same outcome as an HTTP+JSON mock (v1.0, loopback)', () => {
  it.each(SAME)('%s', async (_label, setup, act, options) => {
    const http = await observe('HTTP+JSON', setup, act, options);
    const grpc = await observe('GRPC', setup, act, options);
    expect(grpc).toEqual(http);
  });
});

describe('where gRPC differs by design', () => {
  it('a bare 503 is UNAVAILABLE over gRPC, which proves nothing (gRFC A6): a send is not repeated, a read is', async () => {
    const http = await observe('HTTP+JSON', (a) => a.on('sendMessage', httpError(503)), send);
    expect(http).toMatchObject({ kind: 'http', status: 503, attempts: 3, calls: 3 });
    const grpc = await observe('GRPC', (a) => a.on('sendMessage', httpError(503)), send, { retry: { ...fast, lookUpSends: false } });
    expect(grpc).toMatchObject({ kind: 'http', status: 503, retryable: true, ambiguous: true, attempts: 1, calls: 1 });
    // With the lookup (the default), the agent's ListTasks proves the send never started a task: it is
    // repeated like the HTTP refusal (3 sends, each followed by one ListTasks), and the final error says
    // the agent never got it.
    const absent = await observe('GRPC', (a) => a.on('sendMessage', httpError(503)), send);
    expect(absent).toMatchObject({ kind: 'http', status: 503, ambiguous: false, attempts: 3, calls: 6 });
    const read = await observe('GRPC', (a) => a.on('getTask', failFirst(2, httpError(503), replyTask())), (c) => c.getTask({ id: 't' }));
    expect(read).toEqual({ ok: 'task', calls: 3 });
  });

  it('a bare 502 is UNAVAILABLE too: the same verdict, reported as status 503', async () => {
    const http = await observe('HTTP+JSON', (a) => a.on('sendMessage', httpError(502)), send);
    const grpc = await observe('GRPC', (a) => a.on('sendMessage', httpError(502)), send);
    expect(grpc).toEqual({ ...http, status: 503 });
  });

  it('JSON-RPC data.retryable: true becomes grpc-retry-pushback-ms 0: repeated, as over JSON-RPC', async () => {
    const setup = (a: MockAgent): void => void a.on('sendMessage', failFirst(1, jsonRpcError(-32603, 'internal', { retryable: true }), replyText('ok')));
    const rpc = await observe('JSONRPC', setup, send);
    const grpc = await observe('GRPC', setup, send);
    expect(grpc).toEqual(rpc);
    expect(grpc).toEqual({ ok: 'message', calls: 2 });
  });
});
