/**
 * `resilientTransports` (`@a2a-js/sdk` 1.x) against the official server, method by method: the same
 * script through the official `Client` over our transports and over its own returns the same objects
 * (server-made ids and timestamps aside), and fails with the same error classes — ours carrying our
 * `A2AClientError` as `cause`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCard, TaskState, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { isA2AClientError } from '../../src/index.js';
import { resilientTransports } from '../../src/a2a-js/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { all, clientPair, normalise, sendRequest, thrown } from './sdk-clients.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer({ pushNotifications: true });
});
afterAll(async () => {
  await server.close();
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('%s: the official Client over resilientTransports ≡ over its own', (binding) => {
  let ours: Client;
  let theirs: Client;
  beforeAll(async () => {
    ({ ours, theirs } = await clientPair(server.baseUrl, binding));
    expect(ours.transport.protocolName).toBe(binding);
    expect(ours.protocolVersion).toBe('1.0');
  });

  it.each(['echo hello', 'message hi', 'fail E42', 'stream 3'])('sendMessage(%j) resolves with the same Task or Message', async (text) => {
    const [a, b] = await Promise.all([ours.sendMessage(sendRequest(text)), theirs.sendMessage(sendRequest(text))]);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it.each(['stream 5', 'echo hi', 'fail E7'])('sendMessageStream(%j) yields the same StreamResponses in the same order', async (text) => {
    const [a, b] = await Promise.all([all(ours.sendMessageStream(sendRequest(text))), all(theirs.sendMessageStream(sendRequest(text)))]);
    expect(a.length).toBeGreaterThan(0);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it('getTask and listTasks read the same task identically (no normalising needed)', async () => {
    const task = (await theirs.sendMessage(sendRequest('stream 2'))) as Task;
    expect(await ours.getTask({ tenant: '', id: task.id, historyLength: 1 })).toEqual(await theirs.getTask({ tenant: '', id: task.id, historyLength: 1 }));
    const list = { tenant: '', contextId: task.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined };
    const [a, b] = await Promise.all([ours.listTasks(list), theirs.listTasks(list)]);
    expect(a.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(a).toEqual(b);
  });

  it('cancelTask and resubscribeTask of a running task: the same snapshot, the same canceled task', async () => {
    const started = (await theirs.sendMessage({ ...sendRequest('slow'), configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } })) as Task;
    const sub = ours.resubscribeTask({ tenant: '', id: started.id })[Symbol.asyncIterator]();
    const first = await sub.next();
    const theirSub = theirs.resubscribeTask({ tenant: '', id: started.id })[Symbol.asyncIterator]();
    expect(normalise(first.value)).toEqual(normalise((await theirSub.next()).value));
    const canceled = await ours.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(canceled).toEqual(await theirs.getTask({ tenant: '', id: started.id }));
    await sub.return?.();
    await theirSub.return?.();
  });

  it('push-notification configs: create, get, list and delete answer the same objects', async () => {
    const task = (await theirs.sendMessage(sendRequest('echo push'))) as Task;
    const config = { tenant: '', id: 'cfg-1', taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 'tok', authentication: { scheme: 'Bearer', credentials: 'secret' } };
    const created = await ours.createTaskPushNotificationConfig(config);
    expect(created).toEqual(await theirs.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg-1' }));
    expect(await ours.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg-1' })).toEqual(created);
    const listed = { tenant: '', taskId: task.id, pageSize: 0, pageToken: '' };
    expect((await ours.listTaskPushNotificationConfig(listed)).configs).toEqual((await theirs.listTaskPushNotificationConfig(listed)).configs);
    await ours.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg-1' });
    expect((await theirs.listTaskPushNotificationConfig(listed)).configs).toEqual([]);
  });

  it('an unknown task fails with the same error class, name and message; our A2AClientError is the cause', async () => {
    const [a, b] = await Promise.all([thrown(ours.getTask({ tenant: '', id: 'no-such-task' })), thrown(theirs.getTask({ tenant: '', id: 'no-such-task' }))]);
    // The SDK bundles its error classes once per entry point and brands them, so `instanceof` holds across copies.
    expect(a).toBeInstanceOf(b.constructor);
    expect(a).toBeInstanceOf(TaskNotFoundError);
    expect([a.constructor.name, a.name, a.message]).toEqual([b.constructor.name, b.name, b.message]);
    expect(isA2AClientError(a.cause) && a.cause.a2aName).toBe('TaskNotFound');
  });

  it("the transport's getExtendedAgentCard, for an agent without one, fails with the same class", async () => {
    // Called on the transports (the Client has no such method): the version header is what the Client would add.
    const options = { serviceParameters: { 'A2A-Version': '1.0' } };
    const [a, b] = await Promise.all([thrown(ours.transport.getExtendedAgentCard({ tenant: '' }, options)), thrown(theirs.transport.getExtendedAgentCard({ tenant: '' }, options))]);
    expect(a).toBeInstanceOf(b.constructor);
    expect([a.constructor.name, a.name, a.message]).toEqual([b.constructor.name, b.name, b.message]);
  });

  it('a cancel of a finished task fails with the same class (TaskNotCancelable)', async () => {
    const task = (await theirs.sendMessage(sendRequest('echo done'))) as Task;
    const [a, b] = await Promise.all([thrown(ours.cancelTask({ tenant: '', id: task.id, metadata: undefined })), thrown(theirs.cancelTask({ tenant: '', id: task.id, metadata: undefined }))]);
    expect(a).toBeInstanceOf(b.constructor);
    expect([a.constructor.name, a.name, a.message]).toEqual([b.constructor.name, b.name, b.message]);
    expect(a.name).toBe('TaskNotCancelableError');
  });

  it("aborting the call's signal rejects with the signal's reason, as fetch does for the official transport", async () => {
    const controller = new AbortController();
    const pending = thrown(ours.sendMessage(sendRequest('slow'), { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    const error = await pending;
    expect(error.name).toBe('AbortError');
    expect(error).toBe(controller.signal.reason);
  });
});

describe('cards the official SDK decoded itself', () => {
  it('createFromAgentCard(AgentCard.fromJSON(card)) over resilientTransports sends and reads like the official transport', async () => {
    const decoded = AgentCard.fromJSON(server.card);
    const ours = await new ClientFactory({ transports: resilientTransports() }).createFromAgentCard(decoded);
    const theirs = await new ClientFactory(ClientFactoryOptions.default).createFromAgentCard(decoded);
    const [a, b] = await Promise.all([ours.sendMessage(sendRequest('echo decoded')), theirs.sendMessage(sendRequest('echo decoded'))]);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it("a v0.3 card through the official resolver's legacy mode: the 0.3 interface is spoken as v0.3", async () => {
    const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });
    const card = resolver.normalizeAgentCard({ ...server.legacyCard, supportedInterfaces: undefined });
    const ours = await new ClientFactory({ transports: resilientTransports() }).createFromAgentCard(card);
    const theirs = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })] }).createFromAgentCard(card);
    expect([ours.transport.protocolName, ours.protocolVersion]).toEqual(['JSONRPC', theirs.protocolVersion]);
    const [a, b] = await Promise.all([ours.sendMessage(sendRequest('echo legacy')), theirs.sendMessage(sendRequest('echo legacy'))]);
    expect(normalise(a)).toEqual(normalise(b));
  });
});
