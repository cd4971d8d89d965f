/**
 * `resilientTransports`' GRPC factory against the official gRPC server: the official `Client` over
 * it and over the official `GrpcTransportFactory` answers the same objects (ids and timestamps aside)
 * and fails with the same gRPC error classes, ours carrying our `A2AClientError` as `cause`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { isA2AClientError } from '../../src/index.js';
import { resilientCardResolver, resilientTransports } from '../../src/a2a-js/index.js';
import { startOfficialGrpcServer, type OfficialGrpcServer } from '../helpers/official-grpc-server.js';
import { all, normalise, sendRequest, thrown } from './sdk-clients.js';

let server: OfficialGrpcServer;
let ours: Client;
let theirs: Client;
beforeAll(async () => {
  server = await startOfficialGrpcServer();
  ours = await new ClientFactory({ transports: resilientTransports(), cardResolver: resilientCardResolver() }).createFromUrl(server.baseUrl);
  theirs = await new ClientFactory({ transports: [new GrpcTransportFactory()] }).createFromUrl(server.baseUrl);
});
afterAll(async () => {
  await server.close();
});

describe('GRPC: the official Client over resilientTransports ≡ over GrpcTransportFactory', () => {
  it('speaks gRPC v1.0', () => {
    expect([ours.transport.protocolName, ours.protocolVersion]).toEqual(['GRPC', '1.0']);
  });

  it.each(['echo hello', 'message hi', 'fail E42'])('sendMessage(%j) resolves with the same Task or Message', async (text) => {
    const [a, b] = await Promise.all([ours.sendMessage(sendRequest(text)), theirs.sendMessage(sendRequest(text))]);
    expect(normalise(a)).toEqual(normalise(b));
  });

  it('sendMessageStream yields the same StreamResponses; getTask reads the same task', async () => {
    const [a, b] = await Promise.all([all(ours.sendMessageStream(sendRequest('stream 4'))), all(theirs.sendMessageStream(sendRequest('stream 4')))]);
    expect(a.length).toBeGreaterThan(2);
    expect(normalise(a)).toEqual(normalise(b));
    const task = (await theirs.sendMessage(sendRequest('stream 2'))) as Task;
    expect(await ours.getTask({ tenant: '', id: task.id })).toEqual(await theirs.getTask({ tenant: '', id: task.id }));
  });

  it('an unknown task: the same gRPC error class and name; our A2AClientError is the cause', async () => {
    const [a, b] = await Promise.all([thrown(ours.getTask({ tenant: '', id: 'nope' })), thrown(theirs.getTask({ tenant: '', id: 'nope' }))]);
    expect(a).toBeInstanceOf(b.constructor);
    expect(a).toBeInstanceOf(TaskNotFoundError);
    expect([a.constructor.name, a.name]).toEqual([b.constructor.name, b.name]);
    expect(isA2AClientError(a.cause) && a.cause.a2aName).toBe('TaskNotFound');
  });
});
