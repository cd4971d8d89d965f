import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UnaryMethod } from '../../src/protocol/binding.js';
import { createBinding } from '../../src/protocol/create-binding.js';
import type { Message } from '../../src/protocol/model.js';
import { fixture, sseFrames } from './fixtures.js';
import { attemptContext, BASE, collect, flat, rejection, sseBody } from './msw-helpers.js';

const URL_ = `${BASE}/a2a/jsonrpc`;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  method: string;
  params: unknown;
  headers: Headers;
}

/** Serves JSON-RPC: answers each method with `results[method]`, echoing the id. */
function serve(results: Record<string, unknown>, seen: Seen[] = []): Seen[] {
  server.use(
    http.post(URL_, async ({ request }) => {
      const body = (await request.json()) as { id: string; method: string; params: unknown };
      seen.push({ method: body.method, params: body.params, headers: request.headers });
      return HttpResponse.json({ jsonrpc: '2.0', id: body.id, result: results[body.method] ?? null });
    }),
  );
  return seen;
}

const msg: Message = { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
const v1Task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } };
const v03Task = { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'completed' } };

type Call = [UnaryMethod, unknown, string, unknown, string, unknown];
// [method, params, v1 name, v1 result, v0.3 name, v0.3 result]
const calls: Call[] = [
  ['sendMessage', { message: msg }, 'SendMessage', { task: v1Task }, 'message/send', v03Task],
  ['getTask', { id: 't1', historyLength: 2 }, 'GetTask', v1Task, 'tasks/get', v03Task],
  ['cancelTask', { id: 't1' }, 'CancelTask', v1Task, 'tasks/cancel', v03Task],
  ['createTaskPushNotificationConfig', { taskId: 't1', config: { url: 'https://h' } }, 'CreateTaskPushNotificationConfig', { taskId: 't1', url: 'https://h' }, 'tasks/pushNotificationConfig/set', { taskId: 't1', pushNotificationConfig: { url: 'https://h' } }],
  ['getTaskPushNotificationConfig', { taskId: 't1', configId: 'c' }, 'GetTaskPushNotificationConfig', { taskId: 't1', id: 'c', url: 'https://h' }, 'tasks/pushNotificationConfig/get', { taskId: 't1', pushNotificationConfig: { id: 'c', url: 'https://h' } }],
  ['listTaskPushNotificationConfig', { taskId: 't1' }, 'ListTaskPushNotificationConfigs', { configs: [{ taskId: 't1', url: 'https://h' }] }, 'tasks/pushNotificationConfig/list', [{ taskId: 't1', pushNotificationConfig: { url: 'https://h' } }]],
  ['deleteTaskPushNotificationConfig', { taskId: 't1', configId: 'c' }, 'DeleteTaskPushNotificationConfig', null, 'tasks/pushNotificationConfig/delete', null],
  ['getExtendedAgentCard', {}, 'GetExtendedAgentCard', { name: 'x', supportedInterfaces: [{ url: URL_, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }, 'agent/getAuthenticatedExtendedCard', { name: 'x', url: URL_, protocolVersion: '0.3.0' }],
];

describe.each(['1.0', '0.3'] as const)('JSON-RPC %s', (version) => {
  const binding = createBinding(version, 'JSONRPC');

  it.each(calls)('%s uses its method name and decodes the result', async (method, params, v1Name, v1Result, v03Name, v03Result) => {
    const seen = serve(version === '1.0' ? { [v1Name]: v1Result } : { [v03Name]: v03Result });
    const out: unknown = await binding.unary(method, params as never, attemptContext(URL_, { extensions: ['urn:ext'] }));
    expect(seen[0]?.method).toBe(version === '1.0' ? v1Name : v03Name);
    expect(seen[0]?.headers.get('a2a-version')).toBe(version === '1.0' ? '1.0' : null);
    expect(seen[0]?.headers.get(version === '1.0' ? 'a2a-extensions' : 'x-a2a-extensions')).toBe('urn:ext');
    expect(seen[0]?.headers.get('content-type')).toBe('application/json');
    if (method === 'deleteTaskPushNotificationConfig') expect(out).toBeUndefined();
    else if (method === 'getExtendedAgentCard') expect(out).toMatchObject({ name: 'x' });
    else if (method === 'listTaskPushNotificationConfig') expect(out).toEqual([expect.objectContaining({ taskId: 't1', config: { url: 'https://h' } })]);
    else if (method.includes('Push')) expect(out).toMatchObject({ taskId: 't1', config: { url: 'https://h' } });
    else expect(out).toMatchObject({ kind: 'task', id: 't1', status: { state: 'completed' } });
  });

  it('generates a fresh id per request', async () => {
    const seen = serve({ GetTask: v1Task, 'tasks/get': v03Task });
    const ids: string[] = [];
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = (await request.json()) as { id: string };
        ids.push(body.id);
        return HttpResponse.json({ jsonrpc: '2.0', id: body.id, result: version === '1.0' ? v1Task : v03Task });
      }),
    );
    await binding.unary('getTask', { id: 't1' }, attemptContext(URL_));
    await binding.unary('getTask', { id: 't1' }, attemptContext(URL_));
    expect(seen).toHaveLength(0);
    expect(new Set(ids).size).toBe(2);
  });

  it('rejects a mismatched id as invalid-response on field id', async () => {
    server.use(http.post(URL_, () => HttpResponse.json({ jsonrpc: '2.0', id: 'other', result: v1Task })));
    const e = await rejection(binding.unary('getTask', { id: 't1' }, attemptContext(URL_)));
    expect(e).toMatchObject({ kind: 'invalid-response', field: 'id', method: 'getTask' });
  });

  it('turns a JSON-RPC error into kind json-rpc with code, data and A2A name', async () => {
    const f = fixture(version === '1.0' ? 'v1-jsonrpc-error-task-not-found' : 'v03-jsonrpc-error-task-not-found');
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = (await request.json()) as { id: string };
        return HttpResponse.json({ ...f.response.body, id: body.id });
      }),
    );
    const e = await rejection(binding.unary('getTask', { id: 'no-such-task' }, attemptContext(URL_)));
    expect(e).toMatchObject({ kind: 'json-rpc', code: -32001, a2aName: 'TaskNotFound', status: 200, method: 'getTask' });
    expect((e as { data: unknown }).data).toEqual((f.response.body as { error: { data?: unknown } }).error.data);
  });

  it('keeps kind json-rpc for a JSON-RPC error in a 500 response', async () => {
    server.use(http.post(URL_, () => HttpResponse.json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'boom', data: { retryable: true } } }, { status: 500 })));
    const e = await rejection(binding.unary('getTask', { id: 't' }, attemptContext(URL_)));
    expect(e).toMatchObject({ kind: 'json-rpc', code: -32603, status: 500, data: { retryable: true } });
  });

  it('bounds a huge server message and body excerpt', async () => {
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = (await request.json()) as { id: string };
        return HttpResponse.json({ jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'x'.repeat(100_000) } });
      }),
    );
    const e = (await rejection(binding.unary('getTask', { id: 't' }, attemptContext(URL_)))) as Error;
    expect(e).toMatchObject({ kind: 'json-rpc', code: -32000, phase: 'after-send' });
    expect(e.message.length).toBeLessThan(1_000);
    server.use(http.post(URL_, () => new HttpResponse('y'.repeat(100_000), { status: 503, headers: { 'content-type': 'text/plain' } })));
    const h = (await rejection(binding.unary('getTask', { id: 't' }, attemptContext(URL_)))) as { bodyText: string; kind: string };
    expect(h.kind).toBe('http');
    expect(h.bodyText.length).toBeLessThan(5_000);
  });

  it('reports an HTML 500 as kind http with the body kept', async () => {
    server.use(http.post(URL_, () => new HttpResponse('<html><body>Bad Gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } })));
    const e = await rejection(binding.unary('getTask', { id: 't' }, attemptContext(URL_)));
    expect(e).toMatchObject({ kind: 'http', status: 502, bodyText: '<html><body>Bad Gateway</body></html>' });
  });

  it('rejects an HTML 200 and bad JSON as invalid-response', async () => {
    server.use(http.post(URL_, () => new HttpResponse('<html></html>', { headers: { 'content-type': 'text/html' } })));
    expect(await rejection(binding.unary('getTask', { id: 't' }, attemptContext(URL_)))).toMatchObject({ kind: 'invalid-response', field: 'content-type' });
    server.use(http.post(URL_, () => new HttpResponse('{"jsonrpc":', { headers: { 'content-type': 'application/json' } })));
    expect(await rejection(binding.unary('getTask', { id: 't' }, attemptContext(URL_)))).toMatchObject({ kind: 'invalid-response', field: 'body' });
  });

  it('streams a captured stream and decodes every event', async () => {
    const f = fixture(version === '1.0' ? 'v1-jsonrpc-stream' : 'v03-jsonrpc-stream');
    const frames = sseFrames(f.response.raw ?? '');
    let accept: string | null = null;
    server.use(
      http.post(URL_, async ({ request }) => {
        accept = request.headers.get('accept');
        const body = (await request.json()) as { id: string; method: string };
        expect(body.method).toBe(version === '1.0' ? 'SendStreamingMessage' : 'message/stream');
        return sseBody(frames.map((fr) => ({ ...fr, id: body.id })));
      }),
    );
    const events = await collect(flat(binding.stream('sendStreamingMessage', { message: msg }, attemptContext(URL_))));
    expect(accept).toBe('text/event-stream');
    expect(events).toHaveLength(frames.length);
    expect(events[0]?.kind).toBe('task');
    const last = events.at(-1);
    expect(last?.kind === 'status-update' && last.status.state).toBe('completed');
  });

  it('subscribes with its resubscribe method', async () => {
    let method = '';
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = (await request.json()) as { id: string; method: string };
        method = body.method;
        return sseBody([{ jsonrpc: '2.0', id: body.id, result: version === '1.0' ? { task: v1Task } : v03Task }]);
      }),
    );
    const events = await collect(flat(binding.stream('subscribeToTask', { id: 't1' }, attemptContext(URL_))));
    expect(method).toBe(version === '1.0' ? 'SubscribeToTask' : 'tasks/resubscribe');
    expect(events[0]).toMatchObject({ kind: 'task', id: 't1' });
  });

  it('throws an SSE error frame as a typed json-rpc error after the events before it', async () => {
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = (await request.json()) as { id: string };
        return sseBody([
          { jsonrpc: '2.0', id: body.id, result: version === '1.0' ? { task: { ...v1Task, status: { state: 'TASK_STATE_WORKING' } } } : { ...v03Task, status: { state: 'working' } } },
          `event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32603, message: 'exploded', data: { retryable: true } } })}\n\n`,
        ]);
      }),
    );
    const seen: string[] = [];
    const e = await rejection(
      (async () => {
        for await (const ev of flat(binding.stream('sendStreamingMessage', { message: msg }, attemptContext(URL_)))) seen.push(ev.kind);
      })(),
    );
    expect(seen).toEqual(['task']);
    expect(e).toMatchObject({ kind: 'json-rpc', code: -32603, data: { retryable: true }, method: 'sendStreamingMessage' });
  });

  it('throws a JSON-RPC error sent as a plain JSON answer to a stream request', async () => {
    server.use(
      http.post(URL_, async ({ request }) => {
        const body = (await request.json()) as { id: string };
        return HttpResponse.json({ jsonrpc: '2.0', id: body.id, error: { code: -32004, message: 'no streaming' } });
      }),
    );
    const e = await rejection(collect(flat(binding.stream('sendStreamingMessage', { message: msg }, attemptContext(URL_)))));
    expect(e).toMatchObject({ kind: 'json-rpc', code: -32004, a2aName: 'UnsupportedOperation' });
  });
});

describe('JSON-RPC listTasks', () => {
  it('works on v1.0', async () => {
    const seen = serve({ ListTasks: { tasks: [v1Task], nextPageToken: 'n2' } });
    const out = await createBinding('1.0', 'JSONRPC').unary('listTasks', { contextId: 'c1', status: 'completed', pageSize: 5 }, attemptContext(URL_));
    expect(seen[0]?.params).toEqual({ contextId: 'c1', status: 'TASK_STATE_COMPLETED', pageSize: 5 });
    expect(out).toMatchObject({ tasks: [{ id: 't1' }], nextPageToken: 'n2' });
  });

  it('is unsupported on v0.3 without sending anything', async () => {
    const seen = serve({});
    const e = await rejection(createBinding('0.3', 'JSONRPC').unary('listTasks', {}, attemptContext(URL_)));
    expect(e).toMatchObject({ kind: 'unsupported', phase: 'before-send', method: 'listTasks' });
    expect(seen).toHaveLength(0);
  });
});
