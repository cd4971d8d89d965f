import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { responseErrorFromClientError } from '../../src/convert/from-client-error.js';
import type { A2AClientError } from '../../src/errors/a2a-client-error.js';
import type { UnaryMethod } from '../../src/protocol/binding.js';
import { createBinding } from '../../src/protocol/create-binding.js';
import type { Message } from '../../src/protocol/model.js';
import { attemptContext, BASE, collect, flat, rejection, sseBody } from './msw-helpers.js';

const ROOT = `${BASE}/a2a/rest`;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  verb: string;
  path: string;
  body: string;
  headers: Headers;
}

/** Answers every request under ROOT with `answer(seen)`; records what was sent. */
function serve(answer: (s: Seen) => Response, seen: Seen[] = []): Seen[] {
  server.use(
    http.all(`${ROOT}/*`, async ({ request }) => {
      const u = new URL(request.url);
      const s = { verb: request.method, path: `${u.pathname.slice('/a2a/rest'.length)}${u.search}`, body: await request.text(), headers: request.headers };
      seen.push(s);
      return answer(s);
    }),
  );
  return seen;
}

const msg: Message = { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
const v1Task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } };
// The official v0.3 REST server writes v0.3 ProtoJSON (no `kind`, TASK_STATE_CANCELLED spelling).
const v03Task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } };
const a2aJson = (body: unknown, status = 200) => new HttpResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/a2a+json' } });

type Row = [UnaryMethod, unknown, string, string, unknown, unknown];
// [method, params, verb, path (without version prefix), v1 answer, v0.3 answer]
const rows: Row[] = [
  ['sendMessage', { message: msg }, 'POST', '/message:send', { task: v1Task }, { task: v03Task }],
  ['getTask', { id: 't 1', historyLength: 3 }, 'GET', '/tasks/t%201?historyLength=3', v1Task, v03Task],
  ['cancelTask', { id: 't1' }, 'POST', '/tasks/t1:cancel', v1Task, v03Task],
  ['createTaskPushNotificationConfig', { taskId: 't1', config: { url: 'https://h' } }, 'POST', '/tasks/t1/pushNotificationConfigs', { taskId: 't1', url: 'https://h' }, { name: 'tasks/t1/pushNotificationConfigs/c', pushNotificationConfig: { url: 'https://h' } }],
  ['getTaskPushNotificationConfig', { taskId: 't1', configId: 'c' }, 'GET', '/tasks/t1/pushNotificationConfigs/c', { taskId: 't1', id: 'c', url: 'https://h' }, { name: 'tasks/t1/pushNotificationConfigs/c', pushNotificationConfig: { url: 'https://h' } }],
  ['listTaskPushNotificationConfig', { taskId: 't1' }, 'GET', '/tasks/t1/pushNotificationConfigs', { configs: [{ taskId: 't1', url: 'https://h' }] }, [{ taskId: 't1', pushNotificationConfig: { url: 'https://h' } }]],
  ['deleteTaskPushNotificationConfig', { taskId: 't1', configId: 'c' }, 'DELETE', '/tasks/t1/pushNotificationConfigs/c', undefined, undefined],
];

describe.each(['1.0', '0.3'] as const)('REST %s', (version) => {
  const binding = createBinding(version, 'HTTP+JSON');
  const pre = version === '0.3' ? '/v1' : '';

  it.each(rows)('%s uses its route and decodes the result', async (method, params, verb, path, v1Answer, v03Answer) => {
    const answer = version === '1.0' ? v1Answer : v03Answer;
    const seen = serve(() => (answer === undefined ? new HttpResponse(null, { status: 204 }) : a2aJson(answer)));
    const out: unknown = await binding.unary(method, params as never, attemptContext(ROOT, { extensions: ['urn:a', 'urn:b'] }));
    expect(seen[0]).toMatchObject({ verb, path: `${pre}${path}` });
    expect(seen[0]?.headers.get('a2a-version')).toBe(version === '1.0' ? '1.0' : null);
    expect(seen[0]?.headers.get(version === '1.0' ? 'a2a-extensions' : 'x-a2a-extensions')).toBe('urn:a, urn:b');
    if (verb === 'GET' || verb === 'DELETE') expect(seen[0]?.body).toBe('');
    if (method === 'deleteTaskPushNotificationConfig') expect(out).toBeUndefined();
    else if (method === 'listTaskPushNotificationConfig') expect(out).toEqual([expect.objectContaining({ taskId: 't1', config: { url: 'https://h' } })]);
    else if (method.includes('Push')) expect(out).toMatchObject({ taskId: 't1', config: { url: 'https://h' } });
    else expect(out).toMatchObject({ kind: 'task', id: 't1', status: { state: 'completed' } });
  });

  it('sends the message in the version’s shape', async () => {
    const seen = serve(() => a2aJson({ task: v1Task }));
    await binding.unary('sendMessage', { message: msg }, attemptContext(ROOT));
    const body = JSON.parse(seen[0]?.body ?? '{}') as { message: unknown };
    expect(body.message).toEqual(
      version === '1.0'
        ? { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }
        : { messageId: 'm1', role: 'ROLE_USER', content: [{ text: 'hi' }] },
    );
  });

  it('gets the extended card', async () => {
    const seen = serve(() => a2aJson({ name: 'ext', supportedInterfaces: [{ url: ROOT, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }] }));
    const card = await binding.unary('getExtendedAgentCard', {}, attemptContext(ROOT));
    expect(card.name).toBe('ext');
    expect(seen[0]?.path).toBe(version === '1.0' ? '/extendedAgentCard' : '/v1/card');
  });

  it('maps problem+json 429 to kind http with the problem parsed', async () => {
    serve(() => new HttpResponse(JSON.stringify({ type: 'about:blank', title: 'Too Many Requests', status: 429, retry_after_ms: 1200 }), { status: 429, headers: { 'content-type': 'application/problem+json', 'retry-after': '2' } }));
    const e = await rejection(binding.unary('getTask', { id: 't1' }, attemptContext(ROOT)));
    expect(e).toMatchObject({ kind: 'http', status: 429, problem: { retry_after_ms: 1200, title: 'Too Many Requests' }, method: 'getTask', phase: 'after-send' });
    expect((e as { headers: Record<string, string> }).headers['retry-after']).toBe('2');
  });

  it('maps google.rpc.Status 404 to kind http with rpcStatus', async () => {
    const status = { code: 404, status: 'NOT_FOUND', message: 'Task not found: t1', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] };
    serve(() => a2aJson({ error: status }, 404));
    const e = await rejection(binding.unary('getTask', { id: 't1' }, attemptContext(ROOT)));
    expect(e).toMatchObject({ kind: 'http', status: 404, rpcStatus: status });
    expect((e as Error).message).toContain('Task not found');
  });

  it('maps an HTML 500 to kind http and a 200 schema mismatch to invalid-response', async () => {
    serve(() => new HttpResponse('<!doctype html><h1>oops</h1>', { status: 500, headers: { 'content-type': 'text/html' } }));
    expect(await rejection(binding.unary('getTask', { id: 't1' }, attemptContext(ROOT)))).toMatchObject({ kind: 'http', status: 500, bodyText: '<!doctype html><h1>oops</h1>' });
    server.resetHandlers();
    serve(() => a2aJson({ id: 't1', contextId: 'c1', status: { state: 42 } }));
    expect(await rejection(binding.unary('getTask', { id: 't1' }, attemptContext(ROOT)))).toMatchObject({ kind: 'invalid-response', field: 'result.status.state' });
  });

  it('streams bare events and throws an error frame as a typed error', async () => {
    const working = version === '1.0' ? { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } } : { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' }, final: false } };
    const seen = serve(() =>
      sseBody([{ task: { ...v1Task, status: { state: 'TASK_STATE_SUBMITTED' } } }, working, `event: error\ndata: ${JSON.stringify({ error: { code: 503, status: 'UNAVAILABLE', message: 'overloaded' } })}\n\n`]),
    );
    const kinds: string[] = [];
    const e = await rejection(
      (async () => {
        for await (const ev of flat(binding.stream('sendStreamingMessage', { message: msg }, attemptContext(ROOT)))) kinds.push(ev.kind);
      })(),
    );
    expect(seen[0]).toMatchObject({ verb: 'POST', path: `${pre}/message:stream` });
    expect(seen[0]?.headers.get('accept')).toBe('text/event-stream');
    expect(kinds).toEqual(['task', 'status-update']);
    expect(e).toMatchObject({ kind: 'http', status: 503, rpcStatus: { status: 'UNAVAILABLE' }, method: 'sendStreamingMessage' });
    // The frame's own status, not the stream's 200: a 503 is retryable, and its code says 503.
    expect(responseErrorFromClientError(e as A2AClientError)).toMatchObject({ type: 'http_error', code: '503' });
  });

  it.each([
    ['plain text', 'the backend fell over'],
    ['unknown JSON', JSON.stringify({ oops: true })],
  ])('an error frame of %s is kind http without a status (code "http"), never "200"', async (_label, data) => {
    serve(() => sseBody([{ task: { ...v1Task, status: { state: 'TASK_STATE_SUBMITTED' } } }, `event: error\ndata: ${data}\n\n`]));
    const e = await rejection(
      (async () => {
        for await (const _ev of flat(binding.stream('sendStreamingMessage', { message: msg }, attemptContext(ROOT)))) void _ev;
      })(),
    );
    expect(e).toMatchObject({ kind: 'http', bodyText: data });
    expect((e as A2AClientError).status).toBeUndefined();
    expect(responseErrorFromClientError(e as A2AClientError)).toMatchObject({ type: 'http_error', code: 'http' });
  });

  it('retries SubscribeToTask with the other verb on 405', async () => {
    const seen = serve((s) => (seen.length === 1 ? new HttpResponse(null, { status: 405 }) : sseBody([{ task: v1Task }])));
    const events = await collect(flat(binding.stream('subscribeToTask', { id: 't1' }, attemptContext(ROOT))));
    expect(seen.map((s) => `${s.verb} ${s.path}`)).toEqual(
      version === '1.0' ? ['GET /tasks/t1:subscribe', 'POST /tasks/t1:subscribe'] : ['POST /v1/tasks/t1:subscribe', 'GET /v1/tasks/t1:subscribe'],
    );
    expect(events).toEqual([expect.objectContaining({ kind: 'task', id: 't1' })]);
  });

  it('rejects a stream answered with JSON as invalid-response', async () => {
    serve(() => a2aJson(v1Task));
    expect(await rejection(collect(flat(binding.stream('sendStreamingMessage', { message: msg }, attemptContext(ROOT)))))).toMatchObject({ kind: 'invalid-response', field: 'content-type' });
  });
});

describe('REST listTasks', () => {
  it('sends the filter as a query on v1.0', async () => {
    const seen = serve(() => a2aJson({ tasks: [v1Task], totalSize: 1 }));
    const out = await createBinding('1.0', 'HTTP+JSON').unary('listTasks', { contextId: 'c1', status: 'working', includeArtifacts: true }, attemptContext(ROOT));
    expect(seen[0]).toMatchObject({ verb: 'GET', path: '/tasks?contextId=c1&status=TASK_STATE_WORKING&includeArtifacts=true' });
    expect(out.tasks).toHaveLength(1);
  });

  it('is unsupported on v0.3 without sending anything', async () => {
    const seen = serve(() => a2aJson({}));
    const e = await rejection(createBinding('0.3', 'HTTP+JSON').unary('listTasks', {}, attemptContext(ROOT)));
    expect(e).toMatchObject({ kind: 'unsupported', phase: 'before-send' });
    expect(seen).toHaveLength(0);
  });
});
