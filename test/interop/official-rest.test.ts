/**
 * The official server's HTTP+JSON/REST binding with plain `fetch`: v1.0 routes under `/a2a/rest/…`
 * (`A2A-Version: 1.0`) and v0.3 routes under `/a2a/rest/v1/…` (no header, v0.3 *proto* JSON).
 * Exchanges are compared with captured fixtures in `fixtures/`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { V1, v03RestSend, v1Send } from './requests.js';
import { exchange, record, withFixture, type Capture, type WireRequest } from './wire-capture.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

const call = (req: WireRequest): Promise<Capture> => exchange(server.baseUrl, req);
function expectFixture(name: string, capture: Capture): void {
  const { actual, expected } = withFixture(name, capture, server.baseUrl);
  expect(actual).toEqual(expected);
}
const taskId = z.object({ task: z.object({ id: z.string() }) });
const JSON_V03 = 'application/json; charset=utf-8';
const JSON_V1 = 'application/a2a+json; charset=utf-8';

describe('REST v1.0 (/a2a/rest, A2A-Version: 1.0)', () => {
  it('POST /message:send → 200 {task}; "message" → {message}; application/a2a+json', async () => {
    const c = await call({ method: 'POST', path: '/a2a/rest/message:send', headers: V1, body: v1Send('echo hello') });
    expect(c.response.status).toBe(200);
    expect(c.response.contentType).toBe(JSON_V1);
    expect(c.response.body).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'hello' }] }] } });
    const m = await call({ method: 'POST', path: '/a2a/rest/message:send', headers: { ...V1, 'content-type': 'application/a2a+json' }, body: v1Send('message hi') });
    expect(m.response.body).toMatchObject({ message: { role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
    const f = await call({ method: 'POST', path: '/a2a/rest/message:send', headers: V1, body: v1Send('fail E42') });
    expect(f.response.body).toMatchObject({ task: { status: { state: 'TASK_STATE_FAILED', message: { metadata: { error_code: 'E42' } } }, metadata: { error_code: 'E42' } } });
    expectFixture('v1-rest-send-echo', c);
    expectFixture('v1-rest-send-message', m);
    expectFixture('v1-rest-send-fail', f);
  });

  it('POST /message:stream → SSE of bare StreamResponse objects (no JSON-RPC envelope)', async () => {
    const c = await call({ method: 'POST', path: '/a2a/rest/message:stream', headers: V1, body: v1Send('stream 2') });
    expect(c.response.contentType).toBe('text/event-stream');
    expect(c.response.raw).toMatch(/^data: \{"task":/);
    expect(c.response.frames?.map((f) => Object.keys(z.record(z.string(), z.unknown()).parse(f.data)))).toEqual([
      ['task'], ['statusUpdate'], ['artifactUpdate'], ['artifactUpdate'], ['statusUpdate'],
    ]);
    expectFixture('v1-rest-stream', c);
  });

  it('GET /tasks/{id}, POST /tasks/{id}:subscribe, POST /tasks/{id}:cancel, GET /tasks', async () => {
    const sent = await call({ method: 'POST', path: '/a2a/rest/message:send', headers: V1, body: v1Send('slow', { returnImmediately: true }) });
    const id = taskId.parse(sent.response.body).task.id;
    const got = await call({ method: 'GET', path: `/a2a/rest/tasks/${id}?historyLength=1`, headers: V1 });
    expect(got.response.body).toMatchObject({ id, status: { state: 'TASK_STATE_WORKING' } });
    const subReq: WireRequest = { method: 'POST', path: `/a2a/rest/tasks/${id}:subscribe`, headers: V1 };
    const subRes = await fetch(`${server.baseUrl}${subReq.path}`, { method: 'POST', headers: V1 });
    const canceled = await call({ method: 'POST', path: `/a2a/rest/tasks/${id}:cancel`, headers: V1, body: {} });
    expect(canceled.response.body).toMatchObject({ id, status: { state: 'TASK_STATE_CANCELED' } });
    const sub = await record(subReq, V1, subRes);
    expect(sub.response.frames?.map((f) => f.data)).toMatchObject([
      { task: { id, status: { state: 'TASK_STATE_WORKING' } } },
      { statusUpdate: { taskId: id, status: { state: 'TASK_STATE_CANCELED' } } },
    ]);
    const terminal = await call({ method: 'GET', path: `/a2a/rest/tasks/${id}:subscribe`, headers: V1 });
    expect(terminal.response.status).toBe(400);
    expect(terminal.response.body).toMatchObject({ error: { code: 400, status: 'FAILED_PRECONDITION', details: [{ reason: 'UNSUPPORTED_OPERATION' }] } });
    const contextId = z.object({ contextId: z.string() }).parse(got.response.body).contextId;
    const list = await call({ method: 'GET', path: `/a2a/rest/tasks?contextId=${contextId}`, headers: V1 });
    expect(list.response.body).toMatchObject({ tasks: [{ id }], totalSize: 1 });
    expectFixture('v1-rest-get', got);
    expectFixture('v1-rest-cancel', canceled);
    expectFixture('v1-rest-subscribe', sub);
    expectFixture('v1-rest-error-subscribe-terminal', terminal);
    expectFixture('v1-rest-list', list);
  });

  it('errors are google.rpc.Status with the HTTP status; unknown routes are Express HTML 404s', async () => {
    const notFound = await call({ method: 'GET', path: '/a2a/rest/tasks/no-such-task', headers: V1 });
    expect(notFound.response.status).toBe(404);
    expect(notFound.response.body).toEqual({ error: {
      code: 404, status: 'NOT_FOUND', message: 'Task not found: no-such-task',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
    } });
    const plain = await fetch(`${server.baseUrl}/a2a/rest/message:send`, { method: 'POST', headers: { ...V1, 'content-type': 'text/plain' }, body: '{}' });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: { details: [{ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }] } });
    const wrongVerb = await fetch(`${server.baseUrl}/a2a/rest/message:send`, { headers: V1 });
    expect(wrongVerb.status).toBe(404);
    expect(wrongVerb.headers.get('content-type')).toMatch(/^text\/html/);
    await wrongVerb.text();
    expectFixture('v1-rest-error-task-not-found', notFound);
  });
});

describe('REST v0.3 (/a2a/rest/v1, no header, v0.3 proto JSON)', () => {
  it('POST /v1/message:send → 201 {task}; messages use `content`, states are proto enums', async () => {
    const c = await call({ method: 'POST', path: '/a2a/rest/v1/message:send', body: v03RestSend('echo hello') });
    expect(c.response.status).toBe(201);
    expect(c.response.contentType).toBe(JSON_V03);
    expect(c.response.body).toMatchObject({ task: {
      status: { state: 'TASK_STATE_COMPLETED', message: { role: 'ROLE_AGENT', content: [{ text: 'hello' }] } },
      artifacts: [{ parts: [{ text: 'hello' }] }],
    } });
    const m = await call({ method: 'POST', path: '/a2a/rest/v1/message:send', body: v03RestSend('message hi') });
    expect(m.response.body).toMatchObject({ message: { role: 'ROLE_AGENT', content: [{ text: 'hi' }] } });
    const f = await call({ method: 'POST', path: '/a2a/rest/v1/message:send', body: v03RestSend('fail E42') });
    expect(f.response.body).toMatchObject({ task: { status: { state: 'TASK_STATE_FAILED', message: { metadata: { error_code: 'E42' } } }, metadata: { error_code: 'E42' } } });
    expectFixture('v03-rest-send-echo', c);
    expectFixture('v03-rest-send-message', m);
    expectFixture('v03-rest-send-fail', f);
  });

  it('a v0.3 JSON-RPC-style body (`message` + kind parts) is rejected or silently loses its text', async () => {
    const kindBody = { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'echo x' }] } };
    const rejected = await call({ method: 'POST', path: '/a2a/rest/v1/message:send', body: kindBody });
    expect(rejected.response).toMatchObject({ status: 400, body: { code: -32602, message: 'Invalid role: -1' } });
    const lossy = await call({ method: 'POST', path: '/a2a/rest/v1/message:send', body: { message: { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'echo x' }] } } });
    expect(lossy.response.body).toMatchObject({ task: { artifacts: [{ parts: [{ text: '' }] }] } });
  });

  it('POST /v1/message:stream → bare proto-JSON frames, final:true on the last status update', async () => {
    const c = await call({ method: 'POST', path: '/a2a/rest/v1/message:stream', body: v03RestSend('stream 2') });
    expect(c.response.contentType).toBe('text/event-stream');
    expect(c.response.frames?.map((f) => f.data)).toMatchObject([
      { task: { status: { state: 'TASK_STATE_SUBMITTED' } } },
      { statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } },
      { artifactUpdate: { artifact: { parts: [{ text: 'chunk 0 ' }] } } },
      { artifactUpdate: { append: true, lastChunk: true } },
      { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' }, final: true } },
    ]);
    expectFixture('v03-rest-stream', c);
  });

  it('GET /v1/tasks/{id}, POST /v1/tasks/{id}:subscribe, POST /v1/tasks/{id}:cancel (state TASK_STATE_CANCELLED)', async () => {
    const sent = await call({ method: 'POST', path: '/a2a/rest/v1/message:send', body: v03RestSend('slow', { blocking: false }) });
    const id = taskId.parse(sent.response.body).task.id;
    const got = await call({ method: 'GET', path: `/a2a/rest/v1/tasks/${id}?historyLength=1` });
    expect(got.response.body).toMatchObject({ id, status: { state: 'TASK_STATE_WORKING' } });
    const subReq: WireRequest = { method: 'POST', path: `/a2a/rest/v1/tasks/${id}:subscribe` };
    const subRes = await fetch(`${server.baseUrl}${subReq.path}`, { method: 'POST' });
    const canceled = await call({ method: 'POST', path: `/a2a/rest/v1/tasks/${id}:cancel`, body: {} });
    expect(canceled.response.body).toMatchObject({ id, status: { state: 'TASK_STATE_CANCELLED' } });
    const sub = await record(subReq, {}, subRes);
    expect(sub.response.frames?.map((f) => f.data)).toMatchObject([
      { task: { id, status: { state: 'TASK_STATE_WORKING' } } },
      { statusUpdate: { taskId: id, status: { state: 'TASK_STATE_CANCELLED' }, final: true } },
    ]);
    const notFound = await call({ method: 'GET', path: '/a2a/rest/v1/tasks/no-such-task' });
    expect(notFound.response).toMatchObject({ status: 404, contentType: JSON_V03, body: { code: -32001, message: 'Task not found: no-such-task' } });
    const withV1Header = await call({ method: 'GET', path: '/a2a/rest/v1/tasks/no-such-task', headers: V1 });
    expect(withV1Header.response.body).toMatchObject({ error: { status: 'NOT_FOUND' } });
    expectFixture('v03-rest-get', got);
    expectFixture('v03-rest-cancel', canceled);
    expectFixture('v03-rest-subscribe', sub);
    expectFixture('v03-rest-error-task-not-found', notFound);
  });
});
