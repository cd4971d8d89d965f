/**
 * A2A 1.0.1 (§8.3.2, `a2a.proto` AgentInterface.tenant): a client MUST send the selected interface's
 * `tenant` in every request. Asserted on the wire of a hand-written loopback agent, through the public
 * client, for every method of both v1.0 bindings: JSON-RPC `params.tenant`; REST the `/{tenant}/…` twin
 * of each route (percent-encoded, not repeated in the body). No tenant on the card → none sent; v0.3
 * has no tenant.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import { recordingAgent, rpcId, rpcMethod, v1Card, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

const task = { id: 'abc', contextId: 'ctx', status: { state: 'TASK_STATE_COMPLETED' } };
const config = { taskId: 'abc', id: 'c1', url: 'https://hook.example/a2a' };
const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };

/** What the agent answers per v1.0 method (JSON-RPC result, REST body; a stream's one frame). */
function resultOf(method: string, card: object): unknown {
  switch (method) {
    case 'SendMessage':
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      return { task };
    case 'ListTasks':
      return { tasks: [task] };
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      return config;
    case 'ListTaskPushNotificationConfigs':
      return { configs: [config] };
    case 'DeleteTaskPushNotificationConfig':
      return {};
    case 'GetExtendedAgentCard':
      return card;
    default:
      return task;
  }
}

/** The v1.0 method a REST request is for. */
function restMethod(req: Recorded): string {
  const path = req.path.split('?')[0] ?? '';
  if (path.endsWith('/message:send')) return 'SendMessage';
  if (path.endsWith('/message:stream')) return 'SendStreamingMessage';
  if (path.endsWith(':subscribe')) return 'SubscribeToTask';
  if (path.endsWith(':cancel')) return 'CancelTask';
  if (path.endsWith('/extendedAgentCard')) return 'GetExtendedAgentCard';
  if (path.includes('/pushNotificationConfigs')) {
    if (req.method === 'POST') return 'CreateTaskPushNotificationConfig';
    if (req.method === 'DELETE') return 'DeleteTaskPushNotificationConfig';
    return path.endsWith('/pushNotificationConfigs') ? 'ListTaskPushNotificationConfigs' : 'GetTaskPushNotificationConfig';
  }
  return path.endsWith('/tasks') ? 'ListTasks' : 'GetTask';
}

const STREAMS = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/** A v1.0 agent on `binding` whose card's interface carries `tenant` (when given). */
async function tenantAgent(binding: 'JSONRPC' | 'HTTP+JSON', tenant: string | undefined, version = '1.0'): Promise<A2AClient> {
  const agent = await recordingAgent((req, url) => {
    const card = v1Card(url, 'tenant-agent', binding);
    card['supportedInterfaces'] = [{ url, protocolBinding: binding, protocolVersion: version, ...(tenant === undefined ? {} : { tenant }) }];
    if (req.method === 'GET' && req.path.startsWith('/.well-known/')) return { body: card };
    if (binding === 'JSONRPC') {
      const method = rpcMethod(req) ?? '';
      const envelope = { jsonrpc: '2.0', id: rpcId(req), result: resultOf(method, card) };
      return STREAMS.has(method) ? { sse: [envelope] } : { body: envelope };
    }
    const method = restMethod(req);
    if (STREAMS.has(method)) return { sse: [resultOf(method, card) as object] };
    if (method === 'DeleteTaskPushNotificationConfig') return { status: 204 };
    return { body: resultOf(method, card) as object };
  });
  agents.push(agent);
  const client = await A2AClient.connect(agent.url, { retry: false });
  clients.push(client);
  return client;
}

/** Every client method once, in this order. */
async function callEverything(client: A2AClient): Promise<void> {
  await client.sendMessage(hi);
  for await (const _ of client.sendStreamingMessage(hi)) void _;
  await client.getTask({ id: 'abc', historyLength: 2 });
  await client.listTasks({ pageSize: 1 });
  await client.cancelTask({ id: 'abc' });
  for await (const _ of client.subscribeToTask({ id: 'abc' })) void _;
  await client.createTaskPushNotificationConfig({ taskId: 'abc', config: { url: 'https://hook.example/a2a' } });
  await client.getTaskPushNotificationConfig({ taskId: 'abc', configId: 'c1' });
  await client.listTaskPushNotificationConfig({ taskId: 'abc' });
  await client.deleteTaskPushNotificationConfig({ taskId: 'abc', configId: 'c1' });
  await client.getExtendedAgentCard();
}

const RPC_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
];

/** The calls the last agent received after its card fetch. */
function calls(): Recorded[] {
  const agent = agents[agents.length - 1];
  return (agent?.requests ?? []).filter((r) => !r.path.startsWith('/.well-known/'));
}

describe('tenant on JSON-RPC (v1.0): params.tenant of every method', () => {
  it('sends the interface’s tenant in the params of all eleven methods, next to their own members', async () => {
    const client = await tenantAgent('JSONRPC', 'acme');
    expect(client.protocol.tenant).toBe('acme');
    await callEverything(client);
    const sent = calls();
    expect(sent.map(rpcMethod)).toEqual(RPC_METHODS);
    for (const req of sent) expect((req.json as { params: { tenant?: unknown } }).params.tenant, rpcMethod(req)).toBe('acme');
    const params = (name: string) => (sent.find((r) => rpcMethod(r) === name)?.json as { params: unknown }).params;
    expect(params('GetTask')).toEqual({ id: 'abc', historyLength: 2, tenant: 'acme' });
    expect(params('GetExtendedAgentCard')).toEqual({ tenant: 'acme' });
    expect(params('CreateTaskPushNotificationConfig')).toEqual({ taskId: 'abc', url: 'https://hook.example/a2a', tenant: 'acme' });
    expect(params('DeleteTaskPushNotificationConfig')).toEqual({ taskId: 'abc', id: 'c1', tenant: 'acme' });
  });

  it('an interface without a tenant (or an empty one) sends no tenant member', async () => {
    for (const tenant of [undefined, '']) {
      const client = await tenantAgent('JSONRPC', tenant);
      expect(client.protocol.tenant).toBeUndefined();
      await client.getTask({ id: 'abc' });
      await client.getExtendedAgentCard();
      for (const req of calls()) expect(req.json).toMatchObject({ params: expect.not.objectContaining({ tenant: expect.anything() }) });
    }
  });

  it('v0.3 has no tenant: none is sent even when the card’s entry has one', async () => {
    const client = await tenantAgent('JSONRPC', 'acme', '0.3');
    expect([client.protocol.version, client.protocol.tenant]).toEqual(['0.3', undefined]);
    await client.cancelTask({ id: 'abc' }).catch(() => undefined);
    const [req] = calls();
    expect(rpcMethod(req as Recorded)).toBe('tasks/cancel');
    expect((req?.json as { params: object }).params).toEqual({ id: 'abc' });
  });
});

describe('tenant on HTTP+JSON (v1.0): the /{tenant}/… route of every method', () => {
  it('prefixes every route with the tenant and keeps it out of bodies and queries', async () => {
    const client = await tenantAgent('HTTP+JSON', 't1');
    await callEverything(client);
    expect(calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /t1/message:send',
      'POST /t1/message:stream',
      'GET /t1/tasks/abc?historyLength=2',
      'GET /t1/tasks?pageSize=1',
      'POST /t1/tasks/abc:cancel',
      'GET /t1/tasks/abc:subscribe',
      'POST /t1/tasks/abc/pushNotificationConfigs',
      'GET /t1/tasks/abc/pushNotificationConfigs/c1',
      'GET /t1/tasks/abc/pushNotificationConfigs',
      'DELETE /t1/tasks/abc/pushNotificationConfigs/c1',
      'GET /t1/extendedAgentCard',
    ]);
    for (const req of calls()) if (req.json !== undefined) expect(req.json, req.path).not.toHaveProperty('tenant');
  });

  it('percent-encodes the tenant as one path segment', async () => {
    const client = await tenantAgent('HTTP+JSON', 'org/a b?x#y%');
    await client.getTask({ id: 'abc' });
    await client.sendMessage(hi);
    expect(calls().map((r) => r.path)).toEqual(['/org%2Fa%20b%3Fx%23y%25/tasks/abc', '/org%2Fa%20b%3Fx%23y%25/message:send']);
  });

  it('no tenant → the plain routes', async () => {
    const client = await tenantAgent('HTTP+JSON', undefined);
    await client.getTask({ id: 'abc' });
    expect(calls().map((r) => r.path)).toEqual(['/tasks/abc']);
  });

  it('a tenant of ".." cannot be a path segment: kind unsupported, nothing sent', async () => {
    const client = await tenantAgent('HTTP+JSON', '..');
    const error = await client.getTask({ id: 'abc' }).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.phase, error.retryable]).toEqual(['unsupported', 'before-send', false]);
    expect(calls()).toEqual([]);
  });
});
