/**
 * A2A v1.0.1 prefers the media type `application/a2a+json`: every place that accepts
 * `application/json` accepts it too (cards, unary results, error bodies, a stream answered with a
 * JSON error), on both v1.0 bindings, against a hand-written loopback agent. What we send stays
 * `Content-Type: application/json` (today's servers parse only that), with both types in `Accept`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import { recordingAgent, rpcId, v1Card, v1Message, type RecordingAgent } from '../helpers/recording-agent.js';

const A2A_JSON = 'application/a2a+json; charset=utf-8';

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

async function connect(agent: RecordingAgent): Promise<A2AClient> {
  agents.push(agent);
  const client = await A2AClient.connect(agent.url, { retry: false });
  clients.push(client);
  return client;
}

const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };

describe('application/a2a+json, JSON-RPC binding', () => {
  const agent = (onRpc: (id: string | number | null, method: string) => { status?: number; body: object }) =>
    recordingAgent((req, url) => {
      if (req.method === 'GET') return { headers: { 'content-type': 'application/a2a+json' }, body: JSON.stringify(v1Card(url, 'media-rpc')) };
      const json = req.json as { method: string };
      const answer = onRpc(rpcId(req), json.method);
      return { status: answer.status ?? 200, headers: { 'content-type': A2A_JSON }, body: JSON.stringify(answer.body) };
    });

  it('reads a card, a result and a JSON-RPC error served as application/a2a+json; sends application/json', async () => {
    let calls = 0;
    const served = await agent((id) => {
      calls++;
      return calls === 1
        ? { body: { jsonrpc: '2.0', id, result: v1Message('pong') } }
        : { body: { jsonrpc: '2.0', id, error: { code: -32001, message: 'no such task' } } };
    });
    const client = await connect(served);
    expect(client.card.name).toBe('media-rpc');
    const result = await client.sendMessage(hi);
    expect(result.kind === 'message' && result.parts[0]).toMatchObject({ kind: 'text', text: 'pong' });
    const error = await client.getTask({ id: 't-1' }).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.a2aName]).toEqual(['json-rpc', 'TaskNotFound']);

    const [card, send] = served.requests;
    expect(card?.headers['accept']).toBe('application/json, application/a2a+json');
    expect(send?.headers['content-type']).toBe('application/json');
    expect(send?.headers['accept']).toBe('application/json, application/a2a+json');
  });

  it('a stream request answered with a JSON-RPC error as application/a2a+json is that error, not a content-type failure', async () => {
    const served = await agent((id) => ({ body: { jsonrpc: '2.0', id, error: { code: -32004, message: 'streaming is off today' } } }));
    const client = await connect(served);
    const error = await (async () => {
      for await (const _ of client.sendStreamingMessage(hi)) return undefined;
      return undefined;
    })().then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.code]).toEqual(['json-rpc', -32004]);
  });
});

describe('application/a2a+json, HTTP+JSON binding', () => {
  it('reads a result, a google.rpc.Status error and a JSON error to a stream request', async () => {
    const served = await recordingAgent((req, url) => {
      if (req.method === 'GET' && req.path.startsWith('/.well-known')) return { headers: { 'content-type': 'application/a2a+json' }, body: JSON.stringify(v1Card(url, 'media-rest', 'HTTP+JSON')) };
      if (req.path === '/message:send') return { headers: { 'content-type': 'application/a2a+json' }, body: JSON.stringify(v1Message('pong')) };
      const status = { error: { code: 404, status: 'NOT_FOUND', message: 'no such task', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] } };
      return { status: 404, headers: { 'content-type': A2A_JSON }, body: JSON.stringify(status) };
    });
    const client = await connect(served);
    const result = await client.sendMessage(hi);
    expect(result.kind === 'message' && result.parts[0]).toMatchObject({ text: 'pong' });
    const error = await client.getTask({ id: 't-1' }).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.status, error.a2aName, error.details?.domain]).toEqual(['http', 404, 'TaskNotFound', 'a2a-protocol.org']);
    const streamError = await (async () => {
      for await (const _ of client.subscribeToTask({ id: 't-1' })) return undefined;
      return undefined;
    })().then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(streamError) && [streamError.kind, streamError.a2aName]).toEqual(['http', 'TaskNotFound']);
    const send = served.requests.find((r) => r.path === '/message:send');
    expect(send?.headers['content-type']).toBe('application/json');
  });

  it('a body that is not JSON is still refused, naming the content type', async () => {
    const served = await recordingAgent((req, url) => {
      if (req.method === 'GET') return { body: v1Card(url, 'media-html', 'HTTP+JSON') };
      return { headers: { 'content-type': 'application/a2a+xml' }, body: '<task/>' };
    });
    const client = await connect(served);
    const error = await client.sendMessage(hi).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.field]).toEqual(['invalid-response', 'content-type']);
  });
});
