/**
 * A2A 1.0.1 wire rules against the official `@a2a-js/sdk` 1.3 server, which scopes tasks by tenant
 * (JSON-RPC `params.tenant`, REST `/{tenant}/…`) and sends push notifications with
 * `Authorization: <scheme> <credentials>` (falling back to `X-A2A-Notification-Token` for a token):
 * - a card whose interfaces carry `tenant` → our client's tasks live in that tenant: found with it,
 *   not found by a client of the same card without it (TaskNotFound on both bindings);
 * - push configs with the 1.0.1 `authentication` round-trip on v1.0 and v0.3, and the agent's webhook
 *   call carries them (the token on v0.3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import type { SendMessageParams, SendResult, Task } from '../../src/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { recordingAgent, type RecordingAgent } from '../helpers/recording-agent.js';

const text = (t: string): SendMessageParams => ({ message: { parts: [{ kind: 'text', text: t }] } });

function taskOf(result: SendResult): Task {
  if (result.kind !== 'task') throw new Error(`expected a task, got ${result.kind}`);
  return result;
}

async function errorOf(promise: Promise<unknown>): Promise<{ kind: string; a2aName: string | undefined; status: number | undefined }> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isA2AClientError(error)) throw new Error(`expected an A2AClientError, got ${String(error)}`);
  return { kind: error.kind, a2aName: error.a2aName, status: error.status };
}

/** Waits until `check` holds (the push sender runs after the answer), up to `ms`. */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

let server: OfficialServer;
let webhook: RecordingAgent;
const clients: A2AClient[] = [];
beforeAll(async () => {
  server = await startOfficialServer({
    card: (card) => {
      if (card.capabilities) card.capabilities.pushNotifications = true;
      card.supportedInterfaces = card.supportedInterfaces.map((i) => (i.protocolVersion === '1.0' ? { ...i, tenant: 'acme/east' } : i));
      return card;
    },
  });
  webhook = await recordingAgent(() => ({ status: 200 }));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
  await webhook.close();
});

async function connect(version: '1.0' | '0.3', binding: 'JSONRPC' | 'HTTP+JSON'): Promise<A2AClient> {
  const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding }, retry: false });
  clients.push(client);
  return client;
}

/** A client of the same card with the tenant removed from every interface. */
function withoutTenant(binding: 'JSONRPC' | 'HTTP+JSON'): A2AClient {
  const card = structuredClone(server.card) as { supportedInterfaces: Array<Record<string, unknown>> };
  for (const i of card.supportedInterfaces) delete i['tenant'];
  const client = new A2AClient(card, { protocol: { version: '1.0', binding }, retry: false });
  clients.push(client);
  return client;
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('tenant, v1.0 %s ↔ official server', (binding) => {
  it('the card’s tenant scopes every call: found with it, TaskNotFound without it', async () => {
    const client = await connect('1.0', binding);
    expect(client.protocol.tenant).toBe('acme/east');
    const sent = taskOf(await client.sendMessage(text('echo tenant')));
    expect(sent.status.state).toBe('completed');
    expect(await client.getTask({ id: sent.id })).toMatchObject({ id: sent.id, status: { state: 'completed' } });
    expect((await client.listTasks({})).tasks.map((t) => t.id)).toContain(sent.id);

    const stranger = withoutTenant(binding);
    expect(stranger.protocol.tenant).toBeUndefined();
    expect(await errorOf(stranger.getTask({ id: sent.id }))).toMatchObject({ a2aName: 'TaskNotFound' });
    expect((await stranger.listTasks({})).tasks.map((t) => t.id)).not.toContain(sent.id);
  });

  it('streams and subscriptions carry it too; a finished task is TaskNotCancelable by name on both bindings', async () => {
    const client = await connect('1.0', binding);
    let id = '';
    for await (const ev of client.sendStreamingMessage(text('stream 2'))) if (ev.kind === 'task') id = ev.id;
    expect((await client.getTask({ id })).status.state).toBe('completed');
    const stranger = withoutTenant(binding);
    expect(await errorOf(stranger.getTask({ id }))).toMatchObject({ a2aName: 'TaskNotFound' });
    const running = taskOf(await client.sendMessage({ ...text('slow'), configuration: { blocking: false } }));
    const elsewhere = stranger.subscribeToTask({ id: running.id })[Symbol.asyncIterator]();
    expect(await errorOf(elsewhere.next())).toMatchObject({ a2aName: 'TaskNotFound' });
    const iterator = client.subscribeToTask({ id: running.id })[Symbol.asyncIterator]();
    try {
      const first = await iterator.next();
      expect(first.done ? undefined : first.value).toMatchObject({ kind: 'task', id: running.id });
      expect((await client.cancelTask({ id: running.id })).status.state).toBe('canceled');
    } finally {
      await iterator.return?.();
    }
    expect(await errorOf(client.cancelTask({ id }))).toEqual(
      binding === 'JSONRPC' ? { kind: 'json-rpc', a2aName: 'TaskNotCancelable', status: 200 } : { kind: 'http', a2aName: 'TaskNotCancelable', status: 400 },
    );
  });
});

describe.each([
  ['1.0', 'JSONRPC'],
  ['1.0', 'HTTP+JSON'],
  ['0.3', 'JSONRPC'],
  ['0.3', 'HTTP+JSON'],
] as const)('push-config authentication, v%s %s ↔ official server', (version, binding) => {
  it('round-trips scheme + credentials and the token, and the webhook call carries the credentials', async () => {
    const client = await connect(version, binding);
    const task = taskOf(await client.sendMessage({ ...text('slow'), configuration: { blocking: false } }));
    const url = `${webhook.url}/hook/${version}/${binding}`;
    const config = { url, token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 's3cret' } };
    const created = await client.createTaskPushNotificationConfig({ taskId: task.id, config });
    expect(created).toMatchObject({ taskId: task.id, config });
    const id = created.config.id;
    expect(typeof id).toBe('string');
    expect((await client.getTaskPushNotificationConfig({ taskId: task.id, configId: id ?? '' })).config).toEqual({ ...config, id });
    expect((await client.listTaskPushNotificationConfig({ taskId: task.id })).map((c) => c.config)).toEqual([{ ...config, id }]);

    await client.cancelTask({ id: task.id });
    await until(() => webhook.requests.some((r) => r.path === `/hook/${version}/${binding}`));
    const pushed = webhook.requests.find((r) => r.path === `/hook/${version}/${binding}`);
    expect(pushed?.headers['authorization']).toBe('Bearer s3cret');
    await client.deleteTaskPushNotificationConfig({ taskId: task.id, configId: id ?? '' });
    expect(await client.listTaskPushNotificationConfig({ taskId: task.id })).toEqual([]);
  });

  it('a token alone: the agent sends it back in X-A2A-Notification-Token', async () => {
    const client = await connect(version, binding);
    const task = taskOf(await client.sendMessage({ ...text('slow'), configuration: { blocking: false } }));
    const path = `/token/${version}/${binding}`;
    const created = await client.createTaskPushNotificationConfig({ taskId: task.id, config: { url: `${webhook.url}${path}`, token: 'tok-2' } });
    expect(created.config).toMatchObject({ token: 'tok-2' });
    expect(created.config.authentication).toBeUndefined();
    await client.cancelTask({ id: task.id });
    await until(() => webhook.requests.some((r) => r.path === path));
    const pushed = webhook.requests.find((r) => r.path === path);
    expect(pushed?.headers['x-a2a-notification-token']).toBe('tok-2');
    expect(pushed?.headers['authorization']).toBeUndefined();
  });
});
