/**
 * The official `@a2a-js/sdk` server's own push sender (InMemoryPushNotificationStore +
 * DefaultPushNotificationSender, legacy-aware) delivering to the receiver on a loopback node:http
 * server: `register()` creates the config with a fresh token, the agent posts every update of a task
 * that streams three chunks — v1.0 as StreamResponse events, v0.3 (compat) as whole Task snapshots —
 * with the token as `Authorization: Bearer` (config with `authentication`) or
 * `X-A2A-Notification-Token` (token only). Each chunk arrives once and in order, the iteration ends at
 * completion, and the config is gone from the server afterwards.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { A2AClient, type AgentEvent, type SendResult } from '../../src/index.js';
import { pushReceiver, type PushReceiver, type PushReceiverEvent } from '../../src/push/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { chunks } from './payloads.js';

let server: OfficialServer;
let webhook: Server;
let webhookUrl: string;
let receiver: PushReceiver;
const seen: IncomingHttpHeaders[] = [];
const reported: PushReceiverEvent[] = [];
const clients: A2AClient[] = [];

beforeEach(() => {
  // The SDK logs every push it sends, and each one a webhook refused.
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

beforeAll(async () => {
  server = await startOfficialServer({ pushNotifications: true, chunkDelayMs: 250 });
  receiver = pushReceiver({ onEvent: (e) => reported.push(e) });
  webhook = createServer((req, res) => {
    seen.push(req.headers);
    receiver.nodeListener(req, res);
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const address = webhook.address();
  webhookUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/a2a/push`;
});

afterAll(async () => {
  await receiver.close();
  await Promise.all(clients.map((c) => c.close()));
  await new Promise<void>((resolve) => webhook.close(() => resolve()));
  await server.close();
});

function taskId(result: SendResult): string {
  if (result.kind !== 'task') throw new Error(`expected a task, got ${result.kind}`);
  return result.id;
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each([
  ['1.0', 'JSONRPC', 'authentication', 'authorization'],
  ['1.0', 'HTTP+JSON', 'token', 'x-a2a-notification-token'],
  ['0.3', 'JSONRPC', 'token', 'x-a2a-notification-token'],
  ['0.3', 'HTTP+JSON', 'authentication', 'authorization'],
] as const)('v%s %s, token in %s', (version, binding, tokenIn, header) => {
  it('each chunk once and in order, ends at completed, the config deleted afterwards', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    clients.push(client);
    const id = taskId(await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'stream 3' }] }, configuration: { blocking: false } }));
    const before = seen.length;
    const events: AgentEvent[] = [];
    for await (const event of receiver.register(client, id, { url: webhookUrl, tokenIn })) events.push(event);

    expect(chunks(events)).toEqual(['chunk 0 ', 'chunk 1 ', 'chunk 2 ']);
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', taskId: id, text: 'chunk 0 chunk 1 chunk 2 ', agent: client.name });
    expect(events.filter((e) => e.error)).toEqual([]);
    // The agent authenticated as the config said, every time.
    const pushes = seen.slice(before);
    expect(pushes.length).toBeGreaterThanOrEqual(3);
    for (const h of pushes) expect(h[header]).toMatch(header === 'authorization' ? /^Bearer [\w-]+\.[\w-]+$/ : /^[\w-]+\.[\w-]+$/);
    // v1.0: StreamResponse events (application/a2a+json); v0.3: the compat serializer's whole Tasks.
    for (const h of pushes) expect(h['content-type']).toBe(version === '1.0' ? 'application/a2a+json' : 'application/json');

    await until(() => reported.some((e) => e.type === 'config-delete' && e.taskId === id));
    expect(reported.find((e) => e.type === 'config-delete' && e.taskId === id)).toMatchObject({ outcome: 'deleted' });
    expect(await client.listTaskPushNotificationConfig({ taskId: id })).toEqual([]);
  });
});

describe('a running task (v1.0)', () => {
  it('a token that is not the one registered is refused (401) and nothing of it is delivered; cancel ends the iteration', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version: '1.0', binding: 'JSONRPC' } });
    clients.push(client);
    const id = taskId(await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'slow' }] }, configuration: { blocking: false } }));
    const iterator = receiver.register(client, id, { url: webhookUrl })[Symbol.asyncIterator]();
    // The Task read at registration: working, with its status message.
    const first = await iterator.next();
    expect(first.value).toMatchObject({ state: 'working', text: 'working until canceled' });
    const [config] = await client.listTaskPushNotificationConfig({ taskId: id });
    const token = config?.config.token ?? '';
    expect(config?.config.authentication).toEqual({ scheme: 'Bearer', credentials: token });

    const forged = `${token.slice(0, token.indexOf('.'))}.${'A'.repeat(43)}`;
    const body = JSON.stringify({ statusUpdate: { taskId: id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });
    const attempts: Array<Record<string, string>> = [{ authorization: `Bearer ${forged}` }, { 'x-a2a-notification-token': 'nope' }, {}];
    for (const headers of attempts) {
      const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain(token.slice(token.indexOf('.') + 1));
    }
    await client.cancelTask({ id });
    const rest: AgentEvent[] = [];
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) rest.push(step.value);
    expect(rest.map((e) => [e.object, e.error?.type, e.state])).toEqual([['error', 'flow_error', 'canceled']]);
    await until(() => reported.some((e) => e.type === 'config-delete' && e.taskId === id));
    expect(await client.listTaskPushNotificationConfig({ taskId: id })).toEqual([]);
    // After the iteration the token is revoked: the agent's own late delivery is refused.
    const late = await fetch(webhookUrl, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
    expect(late.status).toBe(401);
  });

  it('a break ends the iteration and deletes the config (v0.3)', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version: '0.3', binding: 'JSONRPC' } });
    clients.push(client);
    const id = taskId(await client.sendMessage({ message: { parts: [{ kind: 'text', text: 'slow' }] }, configuration: { blocking: false } }));
    for await (const event of receiver.register(client, id, { url: webhookUrl })) {
      expect(event).toMatchObject({ state: 'working' });
      break;
    }
    await until(() => reported.some((e) => e.type === 'config-delete' && e.taskId === id));
    expect(await client.listTaskPushNotificationConfig({ taskId: id })).toEqual([]);
    await client.cancelTask({ id });
  });
});
