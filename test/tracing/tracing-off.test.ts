/**
 * Tracing that is off changes nothing: with the API installed but no tracer provider registered
 * (with or without a propagator) no trace context goes out and no span is made; a sampled-out call
 * still propagates its (not sampled) context, as W3C trace context requires, and records nothing.
 */
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, wrapDownstreamError } from '../../src/index.js';
import { tracingOn } from '../../src/tracing/start-call-trace.js';
import { recordingAgent, rpcId, v1Card, v1Message, type RecordingAgent } from '../helpers/recording-agent.js';
import { useOtel } from './otel-setup.js';

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/** Connects to an agent, sends one message and one failing read; returns what the agent received. */
async function exchange(): Promise<{ headers: Array<Record<string, string>>; traceId: string | undefined }> {
  const agent = await recordingAgent((req, url) => {
    if (req.method === 'GET') return { body: v1Card(url, 'quiet') };
    const method = (req.json as { method?: string }).method;
    if (method === 'GetTask') return { body: { jsonrpc: '2.0', id: rpcId(req), error: { code: -32001, message: 'gone' } } };
    return { body: { jsonrpc: '2.0', id: rpcId(req), result: v1Message('ok') } };
  });
  agents.push(agent);
  const client = await A2AClient.connect(agent.url);
  clients.push(client);
  await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });
  const error = await client.getTask({ id: 't' }).then(() => undefined, (e: unknown) => e);
  if (!isA2AClientError(error)) throw new Error('expected the read to fail');
  const wrapped = wrapDownstreamError({ downstreamAgent: 'quiet', currentAgent: 'me', error });
  return { headers: agent.requests.map((r) => r.headers), traceId: wrapped.data.traceId };
}

describe('API installed, nothing registered', () => {
  it('sends no trace context and makes no span', async () => {
    expect(tracingOn()).toBe(false);
    const { headers, traceId } = await exchange();
    expect(headers).toHaveLength(3);
    for (const h of headers) expect(Object.keys(h).filter((k) => k === 'traceparent' || k === 'tracestate')).toEqual([]);
    expect(traceId).toBeUndefined();
  });
});

describe('a propagator and a context manager, but no tracer provider', () => {
  const otel = useOtel({ provider: false });
  it('still sends no trace context: no span, nothing to propagate', async () => {
    expect(tracingOn()).toBe(false);
    const { headers } = await exchange();
    for (const h of headers) expect(h['traceparent']).toBeUndefined();
    expect(otel.exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('a provider whose sampler drops everything', () => {
  const otel = useOtel({ sampler: new AlwaysOffSampler() });
  it('records nothing but propagates a not-sampled context on every request', async () => {
    expect(tracingOn()).toBe(true);
    const { headers } = await exchange();
    for (const h of headers) expect(h['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(otel.exporter.getFinishedSpans()).toEqual([]);
  });
});
