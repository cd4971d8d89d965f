import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedTask, jsonRpcError, mockAgent, replyText, retryInfo, stream, type MockAgent, type MockServer } from 'a2a-resilient/mocks';
import { readSse, rpc, v03Msg, v1Msg } from './helpers.js';

const V1 = { 'a2a-version': '1.0' };

describe('JSON-RPC v1.0 wire', () => {
  let agent: MockAgent;
  let server: MockServer;
  beforeAll(async () => {
    agent = mockAgent({ name: 'v1rpc', version: '1.0', binding: 'JSONRPC' });
    server = await agent.listen();
  });
  afterAll(() => server.close());

  it('wraps a message result as {message} with ROLE_AGENT and {text, mediaType} parts, echoing the id', async () => {
    agent.reply(replyText('hello'));
    const body = await rpc(server.url, 'SendMessage', v1Msg('hi'), V1, 'req-7');
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 'req-7', result: { message: { role: 'ROLE_AGENT', parts: [{ text: 'hello', mediaType: 'text/plain' }] } } });
    expect(JSON.stringify(body)).not.toContain('"kind"');
  });

  it('answers −32601 to a v1.0 method without the A2A-Version header, like the official server', async () => {
    const before = agent.calls.length;
    expect(await rpc(server.url, 'SendMessage', v1Msg('hi'), {}, 3)).toMatchObject({ id: 3, error: { code: -32601 } });
    expect(agent.calls.length).toBe(before);
  });

  it('answers −32009 with ErrorInfo to an unsupported A2A-Version', async () => {
    const body = await rpc(server.url, 'SendMessage', v1Msg('hi'), { 'a2a-version': '2.0' });
    expect(body).toMatchObject({ error: { code: -32009, data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VERSION_NOT_SUPPORTED' }] } });
  });

  it('answers −32700 on bad JSON and −32600 on a bad envelope, with a null id', async () => {
    const bad = await fetch(server.url, { method: 'POST', headers: V1, body: '{nope' });
    expect(await bad.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    const env = await fetch(server.url, { method: 'POST', headers: V1, body: JSON.stringify({ jsonrpc: '1.0', id: 5 }) });
    expect(await env.json()).toMatchObject({ id: 5, error: { code: -32600 } });
  });

  it('sends jsonRpcError with google.rpc.RetryInfo data', async () => {
    agent.reply(jsonRpcError(-32603, 'overloaded', [retryInfo(1.5)]));
    expect(await rpc(server.url, 'SendMessage', v1Msg('x'), V1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'overloaded', data: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }] },
    });
  });

  it('streams {task|statusUpdate|artifactUpdate} items without final, then getTask/listTasks see the task', async () => {
    agent.reply(stream([{ status: 'working' }, { artifact: 'part', lastChunk: true }, { status: 'completed' }]));
    const res = await fetch(server.url, { method: 'POST', headers: V1, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'SendStreamingMessage', params: v1Msg('go') }) });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const items = await readSse(res);
    expect(items.map((i) => Object.keys((i as { result: object }).result)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(items[3]).toMatchObject({ id: 9, result: { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } } });
    expect(JSON.stringify(items)).not.toContain('final');
    const taskId = (items[0] as { result: { task: { id: string } } }).result.task.id;
    const got = await rpc(server.url, 'GetTask', { id: taskId }, V1);
    expect(got).toMatchObject({ result: { id: taskId, status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'part' }] }] } });
    const listed = await rpc(server.url, 'ListTasks', {}, V1);
    expect(listed).toMatchObject({ result: { tasks: expect.arrayContaining([expect.objectContaining({ id: taskId })]) } });
    expect(await rpc(server.url, 'CancelTask', { id: taskId }, V1)).toMatchObject({ error: { code: -32002 } });
    expect(await rpc(server.url, 'GetTask', { id: 'nope' }, V1)).toMatchObject({ error: { code: -32001 } });
  });

  it('failedTask(outer) is a normal result with outer metadata and the status-message mirror', async () => {
    agent.reply(failedTask({ error_type: 'flow_error', error_code: 'REMOTE_VALIDATION_FAILED', error_message: 'validation failed' }));
    const body = await rpc(server.url, 'SendMessage', v1Msg('x'), V1);
    const fields = { object_type: 'error', error_type: 'flow_error', error_code: 'REMOTE_VALIDATION_FAILED', error_message: 'validation failed', task_state: 'failed' };
    expect(body).toMatchObject({
      result: { task: { status: { state: 'TASK_STATE_FAILED', message: { role: 'ROLE_AGENT', metadata: fields, parts: [{ text: 'validation failed' }] } }, metadata: fields } },
    });
  });

  it('records method, params and headers of every call (same messageId on retries)', async () => {
    agent.clear();
    await rpc(server.url, 'SendMessage', v1Msg('a', 'same-id'), { ...V1, authorization: 'Bearer t' });
    await rpc(server.url, 'SendMessage', v1Msg('a', 'same-id'), V1);
    const calls = agent.callsOf('sendMessage');
    expect(calls.map((c) => c.wireMethod)).toEqual(['SendMessage', 'SendMessage']);
    expect(calls.map((c) => (c.params as { message: { messageId: string } }).message.messageId)).toEqual(['same-id', 'same-id']);
    expect(calls[0]?.headers['a2a-version']).toBe('1.0');
    expect(calls[0]?.headers['authorization']).toBe('Bearer t');
  });
});

describe('JSON-RPC v0.3 wire', () => {
  let agent: MockAgent;
  let server: MockServer;
  beforeAll(async () => {
    agent = mockAgent({ name: 'v03rpc', version: '0.3', binding: 'JSONRPC' });
    server = await agent.listen();
  });
  afterAll(() => server.close());

  it('answers message/send with a bare kind:task, lowercase states and kind parts', async () => {
    const body = await rpc(server.url, 'message/send', v03Msg('hi'));
    expect(body).toMatchObject({ result: { kind: 'task', status: { state: 'completed' }, artifacts: [{ parts: [{ kind: 'text', text: 'echo: hi' }] }] } });
    expect(await rpc(server.url, 'SendMessage', v03Msg('hi'))).toMatchObject({ error: { code: -32601 } });
  });

  it('streams kind events with final:true only on the last status update and append/lastChunk always present', async () => {
    const res = await fetch(server.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: v03Msg('go') }) });
    const items = (await readSse(res)) as Array<{ result: Record<string, unknown> }>;
    expect(items.map((i) => i.result['kind'])).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
    expect(items[1]?.result).toMatchObject({ final: false, status: { state: 'working' } });
    expect(items[2]?.result).toMatchObject({ append: false, lastChunk: true });
    expect(items[3]?.result).toMatchObject({ final: true, status: { state: 'completed' } });
  });

  it('passes free-form data hints through jsonRpcError', async () => {
    agent.reply(jsonRpcError(-32000, 'busy', { retryable: true, retryAfter: 1 }));
    expect(await rpc(server.url, 'message/send', v03Msg('x'))).toMatchObject({ error: { code: -32000, message: 'busy', data: { retryable: true, retryAfter: 1 } } });
  });

  it('failedTask(mirror) keeps metadata only on the status message; text-only only in the parts', async () => {
    agent.reply(failedTask({ placement: 'mirror', error_type: 'flow_error', error_message: 'bad' }), failedTask({ placement: 'text-only', error_message: 'plain' }));
    const mirror = (await rpc(server.url, 'message/send', v03Msg('x'))) as { result: Record<string, unknown> };
    expect(mirror.result).not.toHaveProperty('metadata');
    expect(mirror.result).toMatchObject({ status: { state: 'failed', message: { kind: 'message', role: 'agent', metadata: { error_type: 'flow_error' } } } });
    const text = (await rpc(server.url, 'message/send', v03Msg('x'))) as { result: { status: { message: Record<string, unknown> } } };
    expect(text.result.status.message).not.toHaveProperty('metadata');
    expect(text.result.status.message).toMatchObject({ parts: [{ kind: 'text', text: 'plain' }] });
  });

  it('tasks/resubscribe sends the snapshot then the events a dropped stream never delivered', async () => {
    agent.reply(stream([{ status: 'working' }, { artifact: 'a' }, { status: 'completed' }], { dropAfter: 2 }));
    const res = await fetch(server.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: v03Msg('go') }) });
    await expect(res.text()).rejects.toThrow();
    const taskId = agent.store.list().at(-1)?.id ?? '';
    const again = await fetch(server.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tasks/resubscribe', params: { id: taskId } }) });
    const items = (await readSse(again)) as Array<{ result: Record<string, unknown> }>;
    expect(items.map((i) => i.result['kind'])).toEqual(['task', 'artifact-update', 'status-update']);
    expect(items[0]?.result).toMatchObject({ id: taskId, status: { state: 'working' } });
    expect(items[2]?.result).toMatchObject({ final: true });
  });

  it('tasks/pushNotificationConfig/set|get|list|delete and agent/getAuthenticatedExtendedCard', async () => {
    const task = (await rpc(server.url, 'message/send', v03Msg('x'))) as { result: { id: string } };
    const id = task.result.id;
    const cfg = { url: 'https://hooks.example/cb', token: 't' };
    const set = await rpc(server.url, 'tasks/pushNotificationConfig/set', { taskId: id, pushNotificationConfig: cfg });
    expect(set).toMatchObject({ result: { taskId: id, pushNotificationConfig: { ...cfg, id: expect.any(String) } } });
    const cfgId = (set as { result: { pushNotificationConfig: { id: string } } }).result.pushNotificationConfig.id;
    expect(await rpc(server.url, 'tasks/pushNotificationConfig/get', { id, pushNotificationConfigId: cfgId })).toMatchObject({ result: { pushNotificationConfig: { id: cfgId } } });
    expect(await rpc(server.url, 'tasks/pushNotificationConfig/list', { id })).toMatchObject({ result: [{ taskId: id }] });
    expect(await rpc(server.url, 'tasks/pushNotificationConfig/delete', { id, pushNotificationConfigId: cfgId })).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect(await rpc(server.url, 'tasks/pushNotificationConfig/list', { id })).toMatchObject({ result: [] });
    expect(await rpc(server.url, 'agent/getAuthenticatedExtendedCard', {})).toMatchObject({ result: { name: 'v03rpc', protocolVersion: '0.3.0' } });
  });
});
