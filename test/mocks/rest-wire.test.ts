import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpError, jsonRpcError, mockAgent, replyTask, retryInfo, type MockAgent, type MockServer } from 'a2a-resilient/mocks';
import { readSse, v03Msg, v1Msg } from './helpers.js';

const V1 = { 'a2a-version': '1.0', 'content-type': 'application/json' };
const post = (url: string, body: unknown, headers: Record<string, string> = V1): Promise<Response> =>
  fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });

describe('REST v1.0 wire', () => {
  let agent: MockAgent;
  let server: MockServer;
  beforeAll(async () => {
    agent = mockAgent({ name: 'v1rest', version: '1.0', binding: 'HTTP+JSON' });
    server = await agent.listen();
  });
  afterAll(() => server.close());

  it('POST /message:send answers {task} as application/a2a+json', async () => {
    agent.reply(replyTask({ state: 'input-required', statusMessage: 'need more', metadata: { k: 1 } }));
    const res = await post(`${server.url}/message:send`, v1Msg('hi'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/a2a+json');
    expect(await res.json()).toMatchObject({
      task: { status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { role: 'ROLE_AGENT', parts: [{ text: 'need more' }] } }, metadata: { k: 1 } },
    });
  });

  it('serves GET /tasks/{id}, GET /tasks, POST /tasks/{id}:cancel and both verbs of :subscribe', async () => {
    agent.reply(replyTask({ state: 'working' }));
    const created = (await (await post(`${server.url}/message:send`, v1Msg('x'))).json()) as { task: { id: string } };
    const id = created.task.id;
    expect(await (await fetch(`${server.url}/tasks/${id}`, { headers: V1 })).json()).toMatchObject({ id, status: { state: 'TASK_STATE_WORKING' } });
    expect(await (await fetch(`${server.url}/tasks`, { headers: V1 })).json()).toMatchObject({ tasks: expect.arrayContaining([expect.objectContaining({ id })]) });
    for (const method of ['GET', 'POST']) {
      const sub = await fetch(`${server.url}/tasks/${id}:subscribe`, { method, headers: V1 });
      expect(sub.headers.get('content-type')).toBe('text/event-stream');
      expect(await readSse(sub)).toEqual([{ task: expect.objectContaining({ id }) }]);
    }
    expect(await (await post(`${server.url}/tasks/${id}:cancel`, {})).json()).toMatchObject({ id, status: { state: 'TASK_STATE_CANCELED' } });
  });

  it('answers errors as google.rpc.Status with the A2A HTTP status', async () => {
    const res = await fetch(`${server.url}/tasks/unknown`, { headers: V1 });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 404, status: 'NOT_FOUND', message: expect.any(String), details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] },
    });
    agent.reply(jsonRpcError(-32603, 'try later', [retryInfo(2)]));
    const err = await post(`${server.url}/message:send`, v1Msg('x'));
    expect(err.status).toBe(500);
    expect(await err.json()).toMatchObject({ error: { code: 500, status: 'INTERNAL', details: [{ retryDelay: '2s' }] } });
  });

  it('rejects a request without A2A-Version (treated as v0.3) with VersionNotSupported', async () => {
    const res = await post(`${server.url}/message:send`, v1Msg('x'), { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { status: 'FAILED_PRECONDITION', details: [{ reason: 'VERSION_NOT_SUPPORTED' }] } });
  });

  it('httpError sends Retry-After with problem+json, or an HTML 500 page', async () => {
    agent.reply(httpError(429, { retryAfter: 3, problem: { title: 'Too Many Requests', type: 'about:blank' } }), httpError(500));
    const limited = await post(`${server.url}/message:send`, v1Msg('x'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(await limited.json()).toEqual({ status: 429, title: 'Too Many Requests', type: 'about:blank' });
    const html = await post(`${server.url}/message:send`, v1Msg('x'));
    expect(html.status).toBe(500);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(await html.text()).toContain('<html>');
  });

  it('creates, gets, lists and deletes push configs; serves the extended card', async () => {
    const created = (await (await post(`${server.url}/message:send`, v1Msg('x'))).json()) as { task: { id: string } };
    const id = created.task.id;
    const base = `${server.url}/tasks/${id}/pushNotificationConfigs`;
    const createdRes = await post(base, { url: 'https://hooks.example/cb', id: 'cfg-1' });
    expect(createdRes.status).toBe(201);
    const made = (await createdRes.json()) as Record<string, unknown>;
    expect(made).toEqual({ taskId: id, url: 'https://hooks.example/cb', id: 'cfg-1' });
    expect(await (await fetch(`${base}/cfg-1`, { headers: V1 })).json()).toEqual(made);
    expect(await (await fetch(base, { headers: V1 })).json()).toEqual({ configs: [made] });
    expect((await fetch(`${base}/cfg-1`, { method: 'DELETE', headers: V1 })).status).toBe(204);
    expect(await (await fetch(base, { headers: V1 })).json()).toEqual({ configs: [] });
    expect(await (await fetch(`${server.url}/extendedAgentCard`, { headers: V1 })).json()).toMatchObject({ name: 'v1rest', supportedInterfaces: [{ url: server.url }] });
  });

  it('answers 405 for a wrong verb and 404 for an unknown route', async () => {
    expect((await fetch(`${server.url}/message:send`, { headers: V1 })).status).toBe(405);
    expect((await fetch(`${server.url}/nothing`, { headers: V1 })).status).toBe(404);
  });
});

describe('REST v0.3 wire', () => {
  let agent: MockAgent;
  let server: MockServer;
  beforeAll(async () => {
    agent = mockAgent({ name: 'v03rest', version: '0.3', binding: 'HTTP+JSON' });
    server = await agent.listen();
  });
  afterAll(() => server.close());

  it('serves /v1/message:send in the v0.3 ProtoJSON shape (content, TASK_STATE_*, ROLE_*)', async () => {
    agent.reply(replyTask({ statusMessage: 'done' }));
    const res = await post(`${server.url}/v1/message:send`, v03Msg('hi'), { 'content-type': 'application/json' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { task: Record<string, unknown> };
    expect(body).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED', message: { role: 'ROLE_AGENT', content: [{ text: 'done' }] } } } });
    expect(body.task).not.toHaveProperty('kind');
  });

  it('streams {task|statusUpdate|artifactUpdate} with final on the last update', async () => {
    const res = await post(`${server.url}/v1/message:stream`, v03Msg('go'), {});
    const items = (await readSse(res)) as Array<Record<string, Record<string, unknown>>>;
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(items[3]?.['statusUpdate']).toMatchObject({ final: true, status: { state: 'TASK_STATE_COMPLETED' } });
  });

  it('answers errors as {code, message, data} with the mapped status, and /v1/card', async () => {
    const res = await fetch(`${server.url}/v1/tasks/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: -32001, message: expect.any(String) });
    agent.reply(jsonRpcError(-32000, 'busy', { retryable: true, retryAfter: 1 }));
    const busy = await post(`${server.url}/v1/message:send`, v03Msg('x'), {});
    expect(busy.status).toBe(500);
    expect(await busy.json()).toEqual({ code: -32000, message: 'busy', data: { retryable: true, retryAfter: 1 } });
    expect(await (await fetch(`${server.url}/v1/card`)).json()).toMatchObject({ protocolVersion: '0.3.0' });
    expect((await fetch(`${server.url}/v1/tasks`)).status).toBe(404);
  });
});
