/**
 * The official @a2a-js/sdk server harness, spoken to with plain `fetch` over JSON-RPC, for v1.0
 * (`A2A-Version: 1.0`) and v0.3 (no header). Every exchange is compared with a captured fixture in
 * `fixtures/` (UUIDs, timestamps and the port normalised) so protocol tests can use real frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { rpc, V1, v03Send, v1Send } from './requests.js';
import { exchange, record, withFixture, type Capture, type WireRequest } from './wire-capture.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

const call = (req: WireRequest): Promise<Capture> => exchange(server.baseUrl, req);
const rpcCall = (headers: Record<string, string>, method: string, params: unknown, id = 1): Promise<Capture> =>
  call({ method: 'POST', path: '/a2a/jsonrpc', headers, body: rpc(method, params, id) });
function expectFixture(name: string, capture: Capture): void {
  const { actual, expected } = withFixture(name, capture, server.baseUrl);
  expect(actual).toEqual(expected);
}
/** Every SSE frame is exactly `data: <json>\n\n` (or `event: error\ndata: …`), LF only, no `id:`. */
function expectPlainFraming(raw: string | undefined): void {
  expect(typeof raw).toBe('string');
  expect(raw).not.toContain('\r');
  expect(raw).not.toMatch(/^id:/m);
  expect(raw?.endsWith('\n\n')).toBe(true);
}
const taskIdV1 = z.object({ result: z.object({ task: z.object({ id: z.string() }) }) });
const taskIdV03 = z.object({ result: z.object({ kind: z.literal('task'), id: z.string() }) });

describe('harness', () => {
  it('serves the v1.0 card (with A2A-Version: 1.0) listing JSONRPC and HTTP+JSON for 1.0 and 0.3', async () => {
    const capture = await call({ method: 'GET', path: '/.well-known/agent-card.json', headers: V1 });
    expect(capture.response.status).toBe(200);
    expect(capture.response.body).toEqual(server.card);
    expect(server.card).toMatchObject({
      supportedInterfaces: [
        { url: server.jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: server.restUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: server.jsonRpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: server.restUrl, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true },
    });
    expectFixture('card-v1', capture);
  });

  it('serves a v0.3 hybrid card without the header, at agent-card.json and at the pre-0.3 agent.json', async () => {
    const capture = await call({ method: 'GET', path: '/.well-known/agent-card.json' });
    expect(capture.response.body).toMatchObject({
      protocolVersion: '0.3', url: server.jsonRpcUrl, preferredTransport: 'JSONRPC',
      additionalInterfaces: [{ url: server.restUrl, transport: 'HTTP+JSON' }],
      supportedInterfaces: [{ protocolVersion: '1.0' }, {}, {}, {}],
    });
    const old = await call({ method: 'GET', path: '/.well-known/agent.json' });
    expect(old.response.body).toEqual(capture.response.body);
    expectFixture('card-v03', capture);
  });

  it('close() ends open SSE streams and running tasks promptly', async () => {
    const own = await startOfficialServer();
    const res = await fetch(own.jsonRpcUrl, {
      method: 'POST', headers: { 'content-type': 'application/json', ...V1 }, body: JSON.stringify(rpc('SendStreamingMessage', v1Send('slow'))),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reading = res.text().then(() => 'ended', () => 'errored');
    const started = performance.now();
    await own.close();
    expect(await reading).toMatch(/ended|errored/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('JSON-RPC v1.0 (A2A-Version: 1.0)', () => {
  it('SendMessage "echo" → result.task, completed, artifact and status message carry the text', async () => {
    const c = await rpcCall(V1, 'SendMessage', v1Send('echo hello'));
    expect(c.response.contentType).toBe('application/json; charset=utf-8');
    expect(c.response.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { task: {
      status: { state: 'TASK_STATE_COMPLETED', message: { role: 'ROLE_AGENT', parts: [{ text: 'hello', mediaType: 'text/plain' }] } },
      artifacts: [{ artifactId: 'out', parts: [{ text: 'hello' }] }],
    } } });
    expectFixture('v1-jsonrpc-send-echo', c);
  });

  it('SendMessage "message" → result.message', async () => {
    const c = await rpcCall(V1, 'SendMessage', v1Send('message hi there'));
    expect(c.response.body).toMatchObject({ result: { message: { role: 'ROLE_AGENT', parts: [{ text: 'hi there' }] } } });
    expectFixture('v1-jsonrpc-send-message', c);
  });

  it.each([
    ['fail E42', 'v1-jsonrpc-send-fail', true, true],
    ['fail-mirror E43', 'v1-jsonrpc-send-fail-mirror', false, true],
    ['fail-text', 'v1-jsonrpc-send-fail-text', false, false],
  ])('SendMessage "%s" → a failed task as a result (not an error)', async (text, fixture, outer, mirror) => {
    const c = await rpcCall(V1, 'SendMessage', v1Send(text));
    const code = text.split(' ')[1];
    const fields = { object_type: 'error', error_type: 'flow_error', error_code: code, task_state: 'failed' };
    expect(c.response.body).toMatchObject({ result: { task: { status: { state: 'TASK_STATE_FAILED' } } } });
    const task = z.object({ result: z.object({ task: z.looseObject({ metadata: z.unknown().optional(), status: z.object({ message: z.looseObject({ metadata: z.unknown().optional() }) }) }) }) })
      .parse(c.response.body).result.task;
    if (outer) expect(task.metadata).toMatchObject(fields);
    else expect(task.metadata).toBeUndefined();
    if (mirror) expect(task.status.message.metadata).toMatchObject(fields);
    else expect(task.status.message.metadata).toBeUndefined();
    expectFixture(fixture, c);
  });

  it('SendStreamingMessage "stream 3" → SSE: task, working, 3 artifact chunks, completed', async () => {
    const c = await rpcCall(V1, 'SendStreamingMessage', v1Send('stream 3'));
    expect(c.response.contentType).toBe('text/event-stream');
    expectPlainFraming(c.response.raw);
    const kinds = (c.response.frames ?? []).map((f) => Object.keys(z.object({ result: z.record(z.string(), z.unknown()) }).parse(f.data).result));
    expect(kinds).toEqual([['task'], ['statusUpdate'], ['artifactUpdate'], ['artifactUpdate'], ['artifactUpdate'], ['statusUpdate']]);
    expect(c.response.frames?.at(-1)?.data).toMatchObject({ result: { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } } });
    expect(c.response.frames?.at(-1)?.data).not.toHaveProperty('result.statusUpdate.final');
    expectFixture('v1-jsonrpc-stream', c);
  });

  it('SendStreamingMessage "stream-fail 2" → last frame is a failed statusUpdate with outer metadata', async () => {
    const c = await rpcCall(V1, 'SendStreamingMessage', v1Send('stream-fail 2'));
    expect(c.response.frames).toHaveLength(5);
    expect(c.response.frames?.at(-1)?.data).toMatchObject({ result: { statusUpdate: {
      status: { state: 'TASK_STATE_FAILED' }, metadata: { error_code: 'STREAM_BROKEN', object_type: 'error' },
    } } });
    expectFixture('v1-jsonrpc-stream-fail', c);
  });

  it('GetTask, SubscribeToTask and CancelTask on a "slow" task', async () => {
    const sent = await rpcCall(V1, 'SendMessage', v1Send('slow', { returnImmediately: true }));
    expect(sent.response.body).toMatchObject({ result: { task: { status: { state: 'TASK_STATE_SUBMITTED' } } } });
    const id = taskIdV1.parse(sent.response.body).result.task.id;
    const got = await rpcCall(V1, 'GetTask', { id, historyLength: 1 }, 2);
    expect(got.response.body).toMatchObject({ id: 2, result: { id, status: { state: 'TASK_STATE_WORKING' }, history: [{ role: 'ROLE_AGENT' }] } });
    const subReq: WireRequest = { method: 'POST', path: '/a2a/jsonrpc', headers: { 'content-type': 'application/json', ...V1 }, body: rpc('SubscribeToTask', { id }, 3) };
    const subRes = await fetch(`${server.baseUrl}${subReq.path}`, { method: 'POST', headers: subReq.headers, body: JSON.stringify(subReq.body) });
    const canceled = await rpcCall(V1, 'CancelTask', { id }, 4);
    expect(canceled.response.body).toMatchObject({ id: 4, result: { id, status: { state: 'TASK_STATE_CANCELED' } } });
    const sub = await record(subReq, subReq.headers ?? {}, subRes);
    expect(sub.response.frames?.map((f) => f.data)).toMatchObject([
      { id: 3, result: { task: { id, status: { state: 'TASK_STATE_WORKING' } } } },
      { id: 3, result: { statusUpdate: { taskId: id, status: { state: 'TASK_STATE_CANCELED' } } } },
    ]);
    const again = await rpcCall(V1, 'SubscribeToTask', { id }, 5);
    expect(again.response.contentType).toBe('application/json; charset=utf-8');
    expect(again.response.body).toMatchObject({ id: 5, error: { code: -32004, data: [{ reason: 'UNSUPPORTED_OPERATION' }] } });
    expectFixture('v1-jsonrpc-send-slow', sent);
    expectFixture('v1-jsonrpc-get', got);
    expectFixture('v1-jsonrpc-cancel', canceled);
    expectFixture('v1-jsonrpc-subscribe', sub);
    expectFixture('v1-jsonrpc-error-subscribe-terminal', again);
  });

  it('ListTasks filtered by contextId', async () => {
    const sent = await rpcCall(V1, 'SendMessage', v1Send('echo listed'));
    const contextId = z.object({ result: z.object({ task: z.object({ contextId: z.string() }) }) }).parse(sent.response.body).result.task.contextId;
    const c = await rpcCall(V1, 'ListTasks', { contextId }, 2);
    expect(c.response.body).toMatchObject({ result: { tasks: [{ contextId }], totalSize: 1, pageSize: 50, nextPageToken: '' } });
    expectFixture('v1-jsonrpc-list', c);
  });

  it('errors: TaskNotFound carries ErrorInfo data; a v1.0 method without the header is -32601', async () => {
    const notFound = await rpcCall(V1, 'GetTask', { id: 'no-such-task' });
    expect(notFound.response.body).toEqual({ jsonrpc: '2.0', id: 1, error: {
      code: -32001, message: 'Task not found: no-such-task',
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
    } });
    const noHeader = await rpcCall({}, 'SendMessage', v1Send('echo x'));
    expect(noHeader.response.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found: SendMessage' } });
    const badVersion = await rpcCall({ 'A2A-Version': '1.0.0' }, 'SendMessage', v1Send('echo x'));
    expect(badVersion.response.body).toMatchObject({ error: { code: -32009, data: [{ reason: 'VERSION_NOT_SUPPORTED' }] } });
    const a2aJson = await call({ method: 'POST', path: '/a2a/jsonrpc', headers: { ...V1, 'content-type': 'application/a2a+json' }, body: rpc('GetTask', { id: 'x' }) });
    expect(a2aJson.response.body).toMatchObject({ id: null, error: { code: -32005 } });
    expectFixture('v1-jsonrpc-error-task-not-found', notFound);
    expectFixture('v1-jsonrpc-error-no-version-header', noHeader);
    expectFixture('v1-jsonrpc-error-version-not-supported', badVersion);
  });
});

describe('JSON-RPC v0.3 (no A2A-Version header)', () => {
  it('message/send "echo" → kind:task, lowercase states, kind on parts', async () => {
    const c = await rpcCall({}, 'message/send', v03Send('echo hello'));
    expect(c.response.body).toMatchObject({ result: {
      kind: 'task', status: { state: 'completed', message: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hello' }] } },
      artifacts: [{ artifactId: 'out', parts: [{ kind: 'text', text: 'hello' }] }],
    } });
    expectFixture('v03-jsonrpc-send-echo', c);
  });

  it('message/send "message" and "fail" → kind:message; failed task with metadata in both places', async () => {
    const msg = await rpcCall({}, 'message/send', v03Send('message hi there'));
    expect(msg.response.body).toMatchObject({ result: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hi there' }] } });
    const fail = await rpcCall({}, 'message/send', v03Send('fail E42'));
    const fields = { object_type: 'error', error_type: 'flow_error', error_code: 'E42', error_message: 'scripted failure E42', task_state: 'failed' };
    expect(fail.response.body).toMatchObject({ result: { kind: 'task', metadata: fields, status: { state: 'failed', message: { metadata: fields, parts: [{ text: 'scripted failure E42' }] } } } });
    expectFixture('v03-jsonrpc-send-message', msg);
    expectFixture('v03-jsonrpc-send-fail', fail);
  });

  it('message/stream "stream 2" → kind on every frame, final:false/true, append/lastChunk always present', async () => {
    const c = await rpcCall({}, 'message/stream', v03Send('stream 2'));
    expectPlainFraming(c.response.raw);
    expect(c.response.frames?.map((f) => f.data)).toMatchObject([
      { result: { kind: 'task', status: { state: 'submitted' } } },
      { result: { kind: 'status-update', status: { state: 'working' }, final: false } },
      { result: { kind: 'artifact-update', append: false, lastChunk: false } },
      { result: { kind: 'artifact-update', append: true, lastChunk: true } },
      { result: { kind: 'status-update', status: { state: 'completed' }, final: true } },
    ]);
    expectFixture('v03-jsonrpc-stream', c);
  });

  it('tasks/get, tasks/resubscribe, tasks/cancel on a "slow" task; resubscribe to a finished task is an SSE error event', async () => {
    const sent = await rpcCall({}, 'message/send', v03Send('slow', { blocking: false }));
    const id = taskIdV03.parse(sent.response.body).result.id;
    const got = await rpcCall({}, 'tasks/get', { id, historyLength: 1 }, 2);
    expect(got.response.body).toMatchObject({ result: { kind: 'task', id, status: { state: 'working' } } });
    const subReq: WireRequest = { method: 'POST', path: '/a2a/jsonrpc', headers: { 'content-type': 'application/json' }, body: rpc('tasks/resubscribe', { id }, 3) };
    const subRes = await fetch(`${server.baseUrl}${subReq.path}`, { method: 'POST', headers: subReq.headers, body: JSON.stringify(subReq.body) });
    const canceled = await rpcCall({}, 'tasks/cancel', { id }, 4);
    expect(canceled.response.body).toMatchObject({ result: { kind: 'task', id, status: { state: 'canceled' } } });
    const sub = await record(subReq, subReq.headers ?? {}, subRes);
    expect(sub.response.frames?.map((f) => f.data)).toMatchObject([
      { result: { kind: 'task', id, status: { state: 'working' } } },
      { result: { kind: 'status-update', taskId: id, status: { state: 'canceled' }, final: true } },
    ]);
    const again = await rpcCall({}, 'tasks/resubscribe', { id }, 5);
    expect(again.response.contentType).toBe('text/event-stream');
    expect(again.response.raw).toMatch(/^event: error\ndata: /);
    expect(again.response.frames).toMatchObject([{ event: 'error', data: { id: 5, error: { code: -32004 } } }]);
    expectFixture('v03-jsonrpc-get', got);
    expectFixture('v03-jsonrpc-cancel', canceled);
    expectFixture('v03-jsonrpc-resubscribe', sub);
    expectFixture('v03-jsonrpc-error-resubscribe-terminal', again);
  });

  it('errors: TaskNotFound has no data; tasks/list does not exist', async () => {
    const notFound = await rpcCall({}, 'tasks/get', { id: 'no-such-task' });
    expect(notFound.response.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Task not found: no-such-task' } });
    const list = await rpcCall({}, 'tasks/list', {});
    expect(list.response.body).toMatchObject({ error: { code: -32601 } });
    expectFixture('v03-jsonrpc-error-task-not-found', notFound);
  });
});
