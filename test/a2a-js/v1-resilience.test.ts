/**
 * What `resilientTransports` adds under the official `Client`, against a hand-written loopback agent
 * whose faults are exact: refused-unprocessed sends retried, a dropped stream resumed so that the
 * caller sees the undisturbed stream, the call's `serviceParameters` sent, and answers the agent
 * chose at random decoded exactly as the official transport decodes them (property-based).
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { v1TaskArb as taskArb } from '../helpers/v1-arbitraries.js';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { isA2AClientError } from '../../src/index.js';
import { recordingAgent, rpcId, rpcMethod, v1Card, type Answer, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';
import { all, clientPair, sendRequest, thrown } from './sdk-clients.js';
import { resilientTransports } from '../../src/a2a-js/index.js';

const agents: RecordingAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/** A JSON-RPC v1.0 agent: the card at the well-known path, every other request to `rpc`. */
async function jsonRpcAgent(rpc: (req: Recorded, method: string | undefined) => Answer | Promise<Answer>): Promise<RecordingAgent> {
  const agent = await recordingAgent((req, url) => (req.method === 'GET' ? { body: v1Card(`${url}/rpc`, 'fault agent') } : rpc(req, rpcMethod(req))));
  agents.push(agent);
  return agent;
}

const envelope = (req: Recorded, result: unknown) => ({ jsonrpc: '2.0', id: rpcId(req), result });
const text = (value: string) => ({ text: value });
const task = (state: string, artifacts: unknown[] = []) => ({ id: 't1', contextId: 'c1', status: { state }, ...(artifacts.length ? { artifacts } : {}) });
const artifact = (...chunks: string[]) => ({ artifactId: 'a1', parts: chunks.map(text) });

describe('resilientTransports under the official Client', () => {
  it('a send refused with 503 twice is repeated and resolves; the official transport fails on the first 503', async () => {
    let sends = 0;
    const agent = await jsonRpcAgent((req) => (++sends <= 2 ? { status: 503, headers: { 'retry-after': '0' }, body: 'busy' } : { body: envelope(req, { task: task('TASK_STATE_COMPLETED') }) }));
    const ours = await new ClientFactory({ transports: resilientTransports({ retry: { baseDelayMs: 1 } }) }).createFromUrl(agent.url);
    const result = await ours.sendMessage(sendRequest('hi'));
    expect(result).toMatchObject({ id: 't1', status: { state: 3 } });
    expect(sends).toBe(3);
    sends = 0;
    const theirs = await new ClientFactory(ClientFactoryOptions.default).createFromUrl(agent.url);
    const error = await thrown(theirs.sendMessage(sendRequest('hi')));
    expect(error.message).toMatch(/503/);
  });

  it('a stream dropped mid-answer is resumed: the caller sees exactly the undisturbed stream (missed chunks as the appends they were)', async () => {
    const whole = [
      { task: task('TASK_STATE_WORKING') },
      { artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: artifact('Hello, ') } },
      { artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: artifact('world'), append: true, lastChunk: true } },
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } },
    ];
    const undisturbed = await jsonRpcAgent((req) => ({ sse: whole.map((r) => envelope(req, r)) }));
    const dropping = await jsonRpcAgent((req, method) =>
      method === 'SendStreamingMessage'
        ? { sse: whole.slice(0, 2).map((r) => envelope(req, r)) } // ends before a terminal state: a drop
        : { sse: [envelope(req, { task: task('TASK_STATE_COMPLETED', [artifact('Hello, world')]) })] },
    );
    const theirs = await new ClientFactory(ClientFactoryOptions.default).createFromUrl(undisturbed.url);
    const expected = await all(theirs.sendMessageStream(sendRequest('hi')));
    const ours = await new ClientFactory({ transports: resilientTransports({ retry: { baseDelayMs: 1 } }) }).createFromUrl(dropping.url);
    const got = await all(ours.sendMessageStream(sendRequest('hi')));
    expect(dropping.requests.map(rpcMethod).filter(Boolean)).toEqual(['SendStreamingMessage', 'SubscribeToTask']);
    // The snapshot is not re-emitted; "world" arrives as one append. lastChunk is not knowable from a snapshot.
    const { lastChunk: _dropped, ...lastAppend } = (expected[2]?.payload?.value ?? {}) as Record<string, unknown>;
    expect(got).toEqual([expected[0], expected[1], { payload: { $case: 'artifactUpdate', value: { ...lastAppend, lastChunk: false } } }, expected[3]]);
  });

  it('an error frame in the middle of a stream: the same plain Error around the same error class, after the same items', async () => {
    const frames = (req: Recorded) => [
      envelope(req, { task: task('TASK_STATE_WORKING') }),
      { jsonrpc: '2.0', id: rpcId(req), error: { code: -32602, message: 'bad part at index 3', data: { field: 'parts[3]' } } },
    ];
    const agent = await jsonRpcAgent((req) => ({ sse: frames(req) }));
    const { ours, theirs } = await clientPair(agent.url, 'JSONRPC', { retry: false });
    const read = async (client: typeof ours) => {
      const items: unknown[] = [];
      const error = await thrown((async () => { for await (const item of client.sendMessageStream(sendRequest('hi'))) items.push(item); })());
      return { items, error };
    };
    const [a, b] = await Promise.all([read(ours), read(theirs)]);
    expect(a.items).toEqual(b.items);
    expect(a.items).toHaveLength(1);
    expect([a.error.constructor.name, a.error.message]).toEqual([b.error.constructor.name, b.error.message]);
    const [causeA, causeB] = [a.error.cause as Error, b.error.cause as Error];
    expect(causeA).toBeInstanceOf(causeB.constructor);
    expect([causeA.name, causeA.message]).toEqual([causeB.name, causeB.message]);
    expect(isA2AClientError(causeA.cause) && causeA.cause.code).toBe(-32602);
  });

  it('HTTP+JSON: a bare 503 (no A2A body), not retried here, is the same REST error class with the same statusCode and headers', async () => {
    const agent = await recordingAgent((req, url) => (req.path.startsWith('/.well-known') ? { body: v1Card(url, 'rest agent', 'HTTP+JSON') } : { status: 503, headers: { 'retry-after': '7' }, body: 'overloaded' }));
    agents.push(agent);
    const { ours, theirs } = await clientPair(agent.url, 'HTTP+JSON', { retry: false });
    const [a, b] = await Promise.all([thrown(ours.getTask({ tenant: '', id: 't1' })), thrown(theirs.getTask({ tenant: '', id: 't1' }))]);
    expect(a).toBeInstanceOf(b.constructor);
    expect([a.name, (a as { statusCode?: number }).statusCode]).toEqual([b.name, 503]);
    expect((a as { headers?: Record<string, string> }).headers?.['retry-after']).toBe('7');
    expect(isA2AClientError(a.cause) && [a.cause.kind, a.cause.retryAfterMs]).toEqual(['http', 7000]);
  });

  it("the call's serviceParameters and an interceptor's headers reach the agent; A2A-Version is the binding's", async () => {
    const agent = await jsonRpcAgent((req) => ({ body: envelope(req, { task: task('TASK_STATE_COMPLETED') }) }));
    const ours = await new ClientFactory({
      transports: resilientTransports(),
      clientConfig: { interceptors: [{ before: async (args) => { args.options = { ...args.options, serviceParameters: { ...args.options?.serviceParameters, 'x-from-interceptor': 'yes' } }; }, after: async () => {} }] },
    }).createFromUrl(agent.url);
    await ours.sendMessage(sendRequest('hi'), { serviceParameters: { 'X-Trace': 'abc', 'A2A-Extensions': 'urn:x' } });
    const sent = agent.requests.find((r) => r.method === 'POST');
    expect(sent?.headers).toMatchObject({ 'x-trace': 'abc', 'x-from-interceptor': 'yes', 'a2a-extensions': 'urn:x', 'a2a-version': '1.0' });
  });

  it('a dead agent trips the breaker: later calls fail in well under a second with circuit-open as the cause', async () => {
    const agent = await jsonRpcAgent(() => ({ status: 502, body: 'bad gateway' }));
    const ours = await new ClientFactory({ transports: resilientTransports({ retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } }) }).createFromUrl(agent.url);
    for (let i = 0; i < 2; i++) await thrown(ours.getTask({ tenant: '', id: 't1' }));
    const started = performance.now();
    const error = await thrown(ours.getTask({ tenant: '', id: 't1' }));
    expect(performance.now() - started).toBeLessThan(500);
    expect(isA2AClientError(error) && error.kind).toBe('circuit-open');
  });
});

describe('answers chosen at random (property): ours returns what the official transport returns', () => {
  it.each(['JSONRPC', 'HTTP+JSON'] as const)('%s: GetTask, SendMessage and the stream of a random task decode deep-equal', async (binding) => {
    let answer: Record<string, unknown> = {};
    const agent = await recordingAgent((req, url) => {
      if (req.method === 'GET' && req.path.startsWith('/.well-known')) return { body: v1Card(binding === 'JSONRPC' ? `${url}/rpc` : url, 'random agent', binding) };
      const streaming = req.headers.accept?.includes('text/event-stream') === true;
      const result = req.path.includes('message:') || rpcMethod(req)?.includes('Message') ? { task: answer } : answer;
      if (binding === 'JSONRPC') return streaming ? { sse: [envelope(req, result)] } : { body: envelope(req, result) };
      return streaming ? { sse: [result] } : { body: result };
    });
    agents.push(agent);
    const { ours, theirs } = await clientPair(agent.url, binding, { retry: false });
    await fc.assert(
      fc.asyncProperty(taskArb, async (generated) => {
        answer = { ...generated, status: { ...generated.status, state: 'TASK_STATE_COMPLETED' } };
        expect(await ours.getTask({ tenant: '', id: 'x' })).toEqual(await theirs.getTask({ tenant: '', id: 'x' }));
        expect(await ours.sendMessage(sendRequest('x'))).toEqual(await theirs.sendMessage(sendRequest('x')));
        expect(await all(ours.sendMessageStream(sendRequest('x')))).toEqual(await all(theirs.sendMessageStream(sendRequest('x'))));
      }),
      { numRuns: 40 },
    );
  });
});
