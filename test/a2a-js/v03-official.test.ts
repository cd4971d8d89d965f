/**
 * `resilientTransportsV03` (`@a2a-js/sdk` 0.3, what `@google/adk` uses) against the official server's
 * v0.3 side: the 0.3 `Client` over our transports and over its own returns the same objects (ids and
 * timestamps aside) and fails with errors of the same name and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk-v03/client';
import type { MessageSendParams, Task } from '@a2a-js/sdk-v03';
import { isA2AClientError } from '../../src/index.js';
import { resilientTransportsV03 } from '../../src/a2a-js/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { all, normalise, thrown } from './sdk-clients.js';

let server: OfficialServer;
let ours: Client;
let theirs: Client;
beforeAll(async () => {
  server = await startOfficialServer();
  ours = await new ClientFactory({ transports: resilientTransportsV03() }).createFromUrl(server.baseUrl);
  theirs = await new ClientFactory(ClientFactoryOptions.default).createFromUrl(server.baseUrl);
});
afterAll(async () => {
  await server.close();
});

const send = (text: string): MessageSendParams => ({ message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } });

describe('@a2a-js/sdk 0.3 Client over resilientTransportsV03 ≡ over its own (JSON-RPC, v0.3)', () => {
  it.each(['echo hello', 'message hi', 'fail E42'])('sendMessage(%j) resolves with the same object', async (text) => {
    const [a, b] = await Promise.all([ours.sendMessage(send(text)), theirs.sendMessage(send(text))]);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it.each(['stream 4', 'fail E7'])('sendMessageStream(%j) yields the same events', async (text) => {
    const [a, b] = await Promise.all([all(ours.sendMessageStream(send(text))), all(theirs.sendMessageStream(send(text)))]);
    expect(a.length).toBeGreaterThan(1);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it('getTask reads a task identically', async () => {
    const task = (await theirs.sendMessage(send('stream 2'))) as Task;
    expect(await ours.getTask({ id: task.id })).toEqual(await theirs.getTask({ id: task.id }));
  });

  it('an unknown task: the same error name and message, our A2AClientError as cause', async () => {
    const [a, b] = await Promise.all([thrown(ours.getTask({ id: 'nope' })), thrown(theirs.getTask({ id: 'nope' }))]);
    expect(a.name).toBe(b.name);
    expect(a.name).toBe('TaskNotFoundError');
    // The official message, then what happened (frameworks such as ADK keep only the message).
    expect(a.message).toBe(`${b.message} (a2a-resilient: json-rpc -32001 TaskNotFound, 1 attempt, agent "official-interop-agent")`);
    expect(isA2AClientError(a.cause) && a.cause.a2aName).toBe('TaskNotFound');
  });

  it("an aborted call rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const pending = thrown(ours.sendMessage(send('slow'), { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toBe(controller.signal.reason);
  });
});
