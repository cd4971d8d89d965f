/**
 * The gRPC binding against the official `@a2a-js/sdk` 1.3 gRPC server (v1.0 service and the legacy
 * v0.3 service) on loopback: every method, errors, metadata, the card negotiation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from 'a2a-resilient';
import { startOfficialGrpcServer, type OfficialGrpcServer } from '../../helpers/official-grpc-server.js';
import { rejection } from '../../helpers/rejection.js';

let server: OfficialGrpcServer;
beforeAll(async () => {
  server = await startOfficialGrpcServer();
});
afterAll(async () => {
  await server.close();
});


const text = (t: string) => ({ message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: t }] } });

describe.each(['1.0', '0.3'] as const)('official gRPC server, A2A %s', (version) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(server.baseUrl, { protocol: { version }, retry: false });
  });
  afterAll(async () => {
    await client.close();
  });

  it('negotiates the GRPC interface from the card', () => {
    expect(client.protocol).toMatchObject({ version, binding: 'GRPC', url: server.cardTarget });
  });

  it('sendMessage, getTask, cancelTask, subscribe and stream round-trip', async () => {
    const sent = await client.sendMessage(text('echo hello grpc'));
    expect(sent.kind).toBe('task');
    if (sent.kind !== 'task') return;
    expect(sent.status.state).toBe('completed');
    expect(sent.artifacts?.[0]?.parts[0]).toMatchObject({ kind: 'text', text: 'hello grpc' });
    const got = await client.getTask({ id: sent.id });
    expect(got.id).toBe(sent.id);
    const events = [];
    for await (const ev of client.sendStreamingMessage(text('stream 3'))) events.push(ev);
    expect(events[0]?.kind).toBe('task');
    const chunks = events.filter((e) => e.kind === 'artifact-update');
    expect(chunks).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' } });
  });

  it('sends a2a-version (v1.0) and the caller headers as metadata', async () => {
    const c = await A2AClient.connect(server.baseUrl, { protocol: { version }, headers: { 'x-api-key': 'k-123' }, extensions: ['https://example.com/ext/v1'] });
    try {
      await c.sendMessage(text('echo meta'));
      const last = server.calls.at(-1);
      expect(last?.metadata['x-api-key']).toBe('k-123');
      if (version === '1.0') {
        expect(last?.path).toBe('/lf.a2a.v1.A2AService/SendMessage');
        expect(last?.metadata['a2a-version']).toBe('1.0');
        expect(last?.metadata['a2a-extensions']).toBe('https://example.com/ext/v1');
      } else {
        expect(last?.path).toBe('/a2a.v1.A2AService/SendMessage');
        expect(last?.metadata['a2a-version']).toBeUndefined();
      }
    } finally {
      await c.close();
    }
  });

  it('TaskNotFound arrives as kind http with a2aName and the gRPC status', async () => {
    const error = await rejection(client.getTask({ id: 'no-such-task' }));
    expect(error).toMatchObject({ kind: 'http', a2aName: 'TaskNotFound', grpcCode: 5, grpcStatus: 'NOT_FOUND', status: 404, method: 'getTask' });
  });

  it('cancelTask on a running task, and TaskNotCancelable on a finished one', async () => {
    const sent = await client.sendMessage({ ...text('slow'), configuration: { blocking: false } });
    if (sent.kind !== 'task') throw new Error('expected a task');
    const canceled = await client.cancelTask({ id: sent.id });
    expect(canceled.status.state).toBe('canceled');
    const done = await client.sendMessage(text('echo done'));
    const error = await rejection(client.cancelTask({ id: done.kind === 'task' ? done.id : '' }));
    expect(error.a2aName).toBe('TaskNotCancelable');
    expect(error.grpcStatus).toBe('FAILED_PRECONDITION');
  });

  it('listTasks (v1.0) / unsupported (v0.3), push configs and the extended card', async () => {
    if (version === '1.0') {
      const page = await client.listTasks({ pageSize: 5 });
      expect(page.tasks.length).toBeGreaterThan(0);
    } else {
      expect((await rejection(client.listTasks({}))).kind).toBe('unsupported');
    }
    const sent = await client.sendMessage(text('echo push'));
    if (sent.kind !== 'task') throw new Error('expected a task');
    const push = await rejection(client.createTaskPushNotificationConfig({ taskId: sent.id, config: { url: 'http://127.0.0.1:9/hook' } }));
    expect(push.a2aName).toBe('PushNotificationNotSupported');
    expect((await rejection(client.getTaskPushNotificationConfig({ taskId: sent.id, configId: 'x' }))).a2aName).toBe('PushNotificationNotSupported');
    expect((await rejection(client.listTaskPushNotificationConfig({ taskId: sent.id }))).a2aName).toBe('PushNotificationNotSupported');
    expect((await rejection(client.deleteTaskPushNotificationConfig({ taskId: sent.id, configId: 'x' }))).a2aName).toBe('PushNotificationNotSupported');
    // The official server answers UnsupportedOperation for a card without an extended card (its choice).
    const card = await rejection(client.getExtendedAgentCard());
    expect(card).toMatchObject({ kind: 'http', a2aName: 'UnsupportedOperation', grpcStatus: 'FAILED_PRECONDITION' });
  });
});
