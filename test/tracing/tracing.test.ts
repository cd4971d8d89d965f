/**
 * OpenTelemetry end to end: a real SDK (in-memory exporter, W3C propagator, AsyncLocalStorage
 * context) and real loopback agents that record the headers they receive and join the trace with a
 * SERVER span of their own. One CLIENT span per logical call; retries, breaker refusals, challenges
 * and resubscribes as its events; status and error.type on failure; traceparent on every request.
 */
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { A2AClient, fanOut, isTerminalError, unwrapDownstreamError, wrapDownstreamError, type ClientOptions } from '../../src/index.js';
import { recordingAgent, rpcId, rpcMethod, v1Card, v1Message, type Answer, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';
import { serverSpan, spanTree, useOtel } from './otel-setup.js';

const otel = useOtel();

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
// Agents listen until the file ends: a port freed early could be handed to a later test's agent, which
// would then share the process-wide breaker the earlier client created for that origin (first options win).
afterAll(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

const task = (state: string) => ({ id: 'task-7', contextId: 'ctx-42', status: { state } });

/** A v1.0 JSON-RPC agent that joins the trace; `script` may answer a request itself. */
async function tracedAgent(name: string, script?: (req: Recorded, method: string) => Answer | undefined): Promise<RecordingAgent> {
  const agent = await recordingAgent((req, url) => {
    const method = req.method === 'GET' ? 'GetAgentCard' : (rpcMethod(req) ?? '?');
    serverSpan(otel.tracer(), `${name} handles ${method}`, req.headers);
    if (req.method === 'GET') return { body: v1Card(url, name) };
    const scripted = script?.(req, method);
    if (scripted) return scripted;
    const ok = (result: object): Answer => ({ body: { jsonrpc: '2.0', id: rpcId(req), result } });
    if (method === 'SendStreamingMessage' || method === 'SubscribeToTask') return { sse: [{ jsonrpc: '2.0', id: rpcId(req), result: { task: task('TASK_STATE_COMPLETED') } }] };
    if (method === 'GetTask') return ok({ ...task('TASK_STATE_FAILED') });
    return ok(v1Message(`${name} says hi`, 'ctx-42'));
  });
  agents.push(agent);
  return agent;
}

async function connect(agent: RecordingAgent, options: ClientOptions = {}): Promise<A2AClient> {
  const client = await A2AClient.connect(agent.url, { retry: { baseDelayMs: 1 }, ...options });
  clients.push(client);
  return client;
}

const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };
const spansNamed = (name: string): ReadableSpan[] => otel.exporter.getFinishedSpans().filter((s) => s.name === name);
const only = (name: string): ReadableSpan => {
  const found = spansNamed(name);
  expect(found, `spans named ${name}`).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parseTraceparent = (header: string | undefined) => {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(header ?? '');
  if (!match) throw new Error(`not a traceparent: ${String(header)}`);
  return { traceId: match[1], parentId: match[2] };
};

describe('one CLIENT span per call', () => {
  it('sendMessage: invoke_agent {name} with the GenAI attributes; the agent saw its trace context, the card fetch had its own span', async () => {
    const agent = await tracedAgent('billing');
    const client = await connect(agent);
    await client.sendMessage(hi);

    const span = only('invoke_agent billing');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'billing',
      'gen_ai.conversation.id': 'ctx-42',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(agent.url).port),
    });
    const [card, send] = agent.requests;
    expect(parseTraceparent(send?.headers['traceparent'])).toEqual({ traceId: span.spanContext().traceId, parentId: span.spanContext().spanId });
    const cardSpan = only('GetAgentCard');
    expect(parseTraceparent(card?.headers['traceparent'])).toEqual({ traceId: cardSpan.spanContext().traceId, parentId: cardSpan.spanContext().spanId });
    // The agent's own span joined the call's trace, as a child of the call's span.
    expect(only('billing handles SendMessage').parentSpanContext?.spanId).toBe(span.spanContext().spanId);
  });

  it('a send that continues a conversation has its gen_ai.conversation.id; other methods are named after the A2A method', async () => {
    const echo = (req: Recorded, method: string): Answer | undefined => {
      const contextId = (req.json as { params?: { message?: { contextId?: string } } }).params?.message?.contextId;
      return method === 'SendMessage' ? { body: { jsonrpc: '2.0', id: rpcId(req), result: v1Message('again', contextId) } } : undefined;
    };
    const client = await connect(await tracedAgent('ledger', echo));
    await client.sendMessage({ message: { contextId: 'ctx-given', parts: [{ kind: 'text', text: 'again' }] } });
    expect(only('invoke_agent ledger').attributes['gen_ai.conversation.id']).toBe('ctx-given');
    await client.getTask({ id: 'task-7' });
    const get = only('GetTask');
    expect(get.attributes['gen_ai.operation.name']).toBeUndefined();
    expect(get.attributes).toMatchObject({ 'gen_ai.agent.name': 'ledger', 'a2a.task.id': 'task-7', 'a2a.task.state': 'failed', 'error.type': 'task-failed' });
    expect(get.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a retry is an event of the one span (with its backoff wait); every attempt carries the span’s context', async () => {
    let calls = 0;
    const agent = await tracedAgent('flaky', (req, method) => (method === 'SendMessage' && ++calls === 1 ? { status: 503, headers: { 'retry-after': '0' }, body: 'busy' } : undefined));
    const client = await connect(agent);
    await client.sendMessage(hi);

    const span = only('invoke_agent flaky');
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([['a2a.retry', { 'a2a.attempt': 1, 'a2a.retry.delay_ms': 0, 'a2a.retry.reason': 'hint:delay(header:retry-after)', 'error.type': 'http' }]]);
    const sends = agent.requests.filter((r) => r.method === 'POST');
    expect(sends).toHaveLength(2);
    for (const r of sends) expect(parseTraceparent(r.headers['traceparent'])).toEqual({ traceId: span.spanContext().traceId, parentId: span.spanContext().spanId });
    expect(spansNamed('flaky handles SendMessage')).toHaveLength(2);
  });

  it('a failure sets status ERROR and error.type: the A2A name, else the kind; the give-up is an event', async () => {
    const agent = await tracedAgent('strict', (req, method) =>
      method === 'GetTask' ? { body: { jsonrpc: '2.0', id: rpcId(req), error: { code: -32001, message: 'no such task' } } } : method === 'CancelTask' ? { status: 500, body: 'boom' } : undefined,
    );
    const client = await connect(agent, { retry: { maxAttempts: 2, baseDelayMs: 1 } });
    await expect(client.getTask({ id: 'x' })).rejects.toMatchObject({ kind: 'json-rpc' });
    await expect(client.cancelTask({ id: 'x' })).rejects.toMatchObject({ kind: 'http' });
    const get = only('GetTask');
    expect([get.status.code, get.attributes['error.type']]).toEqual([SpanStatusCode.ERROR, 'TaskNotFound']);
    expect(get.status.message).toContain('no such task');
    const cancel = only('CancelTask');
    expect([cancel.status.code, cancel.attributes['error.type']]).toEqual([SpanStatusCode.ERROR, 'http']);
    expect(cancel.events.map((e) => e.name)).toEqual(['a2a.retry', 'a2a.give_up']);
  });

  it('a refusal by the open breaker is an event, and the span fails with circuit-open', async () => {
    const agent = await tracedAgent('down', (_req, method) => (method === 'SendMessage' ? { status: 503, body: 'down' } : undefined));
    const client = await connect(agent, { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 60_000 } });
    await expect(client.sendMessage(hi)).rejects.toMatchObject({ kind: 'http' });
    await expect(client.sendMessage(hi)).rejects.toMatchObject({ kind: 'circuit-open' });
    const [, refused] = spansNamed('invoke_agent down');
    expect(refused?.attributes['error.type']).toBe('circuit-open');
    expect(refused?.events.map((e) => e.name)).toEqual(['a2a.circuit_open']);
  });

  it('an answered authentication challenge is an event; both tries carry the span’s context', async () => {
    const agent = await tracedAgent('guarded', (req) => (req.headers['authorization'] === 'Bearer fresh-0002' ? undefined : { status: 401, headers: { 'www-authenticate': 'Bearer realm="x"' }, body: 'no' }));
    const client = await connect(agent, { headers: ({ challenge, method }) => ({ authorization: challenge || method === 'getAgentCard' ? 'Bearer fresh-0002' : 'Bearer stale-0001' }) });
    await client.sendMessage(hi);
    const span = only('invoke_agent guarded');
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([['a2a.auth_challenge', { 'http.response.status_code': 401, 'a2a.auth.scheme': 'Bearer' }]]);
    const traceIds = agent.requests.filter((r) => r.method === 'POST').map((r) => parseTraceparent(r.headers['traceparent']).traceId);
    expect(traceIds).toEqual([span.spanContext().traceId, span.spanContext().traceId]);
  });
});

describe('streams', () => {
  it('one span over the whole stream, a resubscribe as its event, every request in its trace', async () => {
    const agent = await tracedAgent('streamer', (req, method) =>
      method === 'SendStreamingMessage'
        ? { sse: [{ jsonrpc: '2.0', id: rpcId(req), result: { task: task('TASK_STATE_WORKING') } }] } // closes before the task ends
        : undefined,
    );
    const client = await connect(agent);
    const events = [];
    for await (const e of client.stream('go')) events.push(e);
    expect(events.some(isTerminalError)).toBe(false);

    const span = only('invoke_agent streamer');
    expect(span.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.conversation.id': 'ctx-42', 'a2a.task.state': 'completed' });
    expect(span.events.map((e) => [e.name, e.attributes?.['a2a.resubscribe.reason'], e.attributes?.['a2a.task.id']])).toEqual([['a2a.resubscribe', 'connection', 'task-7']]);
    const posts = agent.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => rpcMethod(r))).toEqual(['SendStreamingMessage', 'SubscribeToTask']);
    for (const r of posts) expect(parseTraceparent(r.headers['traceparent']).parentId).toBe(span.spanContext().spanId);
  });

  it('a stream nobody reads starts no span; one the reader leaves early ends its span', async () => {
    const client = await connect(await tracedAgent('lazy'));
    client.sendStreamingMessage(hi);
    expect(spansNamed('invoke_agent lazy')).toHaveLength(0);
    for await (const _ of client.sendStreamingMessage(hi)) break;
    expect(spansNamed('invoke_agent lazy')).toHaveLength(1);
  });
});

describe('a stream read once and then left alone', () => {
  it('ends its span at the deadline, as a failure of kind deadline-exceeded', async () => {
    const client = await connect(
      await tracedAgent('abandoned', (req, method) => (method === 'SendStreamingMessage' ? { sse: [{ jsonrpc: '2.0', id: rpcId(req), result: { task: task('TASK_STATE_WORKING') } }] } : undefined)),
    );
    const iterator = client.sendStreamingMessage(hi, { timeouts: { totalMs: 300 } })[Symbol.asyncIterator]();
    await iterator.next();
    expect(spansNamed('invoke_agent abandoned')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const span = only('invoke_agent abandoned');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('deadline-exceeded');
  });
});

describe('coordinator', () => {
  it('fanOut under a parent span: one invoke_agent child per agent, the retry on its own span; wrapDownstreamError names the trace', async () => {
    let calls = 0;
    const flaky = await tracedAgent('translator', (_req, method) => (method === 'SendMessage' && ++calls === 1 ? { status: 503, headers: { 'retry-after': '0' }, body: 'busy' } : undefined));
    const failing = await tracedAgent('archive', (req, method) => (method === 'SendMessage' ? { body: { jsonrpc: '2.0', id: rpcId(req), error: { code: -32004, message: 'archive is read-only' } } } : undefined));
    const researcher = await tracedAgent('researcher');
    const targets = await Promise.all([researcher, flaky, failing].map(async (a) => ({ client: await connect(a), input: 'Q3 revenue?' })));
    otel.exporter.reset(); // only the fan-out's spans

    const { result, traceId } = await otel.tracer().startActiveSpan('coordinator handles request', async (parent: Span) => {
      try {
        return { result: await fanOut(targets, { minResults: 2, totalMs: 5_000 }), traceId: parent.spanContext().traceId };
      } finally {
        parent.end();
      }
    });
    expect(result.ok.map((r) => r.agent).sort()).toEqual(['researcher', 'translator']);
    expect(result.failed.map((r) => r.agent)).toEqual(['archive']);

    const root = only('coordinator handles request');
    const children = otel.exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(children.map((s) => s.name).sort()).toEqual(['invoke_agent archive', 'invoke_agent researcher', 'invoke_agent translator']);
    for (const s of children) expect([s.spanContext().traceId, s.parentSpanContext?.spanId]).toEqual([traceId, root.spanContext().spanId]);
    expect(only('invoke_agent translator').events.map((e) => e.name)).toEqual(['a2a.retry']);
    expect(only('invoke_agent archive').attributes['error.type']).toBe('UnsupportedOperation');

    const wrapped = wrapDownstreamError({ downstreamAgent: 'archive', currentAgent: 'coordinator', error: result.failed[0]?.error ?? { type: 'x', source: 'path', message: 'x', retryable: false, ambiguous: false } });
    expect(wrapped.data.traceId).toBe(traceId);
    expect(unwrapDownstreamError(wrapped)[0]?.traceId).toBe(traceId);

    console.log(`span tree of one fanOut with a retry:\n${spanTree(otel.exporter.getFinishedSpans())}`);
  });
});

describe('secrets', () => {
  it('a refused call’s span holds no header value: not in its status, attributes or events', async () => {
    const agent = await tracedAgent('echoing', (req) => ({ status: 401, headers: { 'www-authenticate': 'Bearer realm="x"', 'x-echo': req.headers['authorization'] ?? '' }, body: `you sent ${req.headers['authorization'] ?? ''}` }));
    const client = await connect(agent, { headers: ({ method }) => ({ authorization: method === 'getAgentCard' ? 'Bearer card-0000' : 'Bearer very-secret-token-1234' }) });
    await expect(client.sendMessage(hi)).rejects.toMatchObject({ kind: 'http', status: 401 });
    const span = only('invoke_agent echoing');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.events.map((e) => e.name)).toEqual(['a2a.auth_challenge', 'a2a.give_up']);
    expect(JSON.stringify({ status: span.status, attributes: span.attributes, events: span.events })).not.toContain('very-secret-token-1234');
  });
});
