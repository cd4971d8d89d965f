/**
 * gRPC over TLS with a private CA and mutual TLS from the `tls` option (certificates generated at
 * test time), against a grpc-js server on 127.0.0.1 that requires a client certificate, behind a
 * relay that counts connections (one TLS handshake each). A certificate the client cannot verify, or
 * a client certificate the agent requires and did not get, is kind `connection` reason `tls`, before
 * send, and is not repeated: one handshake.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createServer, type Server as NetServer, type Socket } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import type { JsonValue } from '@bufbuild/protobuf';
import { A2AClient, type ClientOptions } from 'a2a-resilient';
import { runtime } from '../../../src/protocol/grpc/grpc-runtime.js';
import { generateTestCerts, type TestCerts } from '../../helpers/test-certs.js';
import { rejection } from '../../helpers/rejection.js';

let certs: TestCerts;
let server: grpc.Server;
let relay: NetServer;
let relayPort = 0;
let connections = 0;
const relayed = new Set<Socket>();
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  certs = generateTestCerts();
  server = new grpc.Server();
  const codec = runtime.services['1.0'].methods.get('GetTask');
  if (codec === undefined) throw new Error('no GetTask');
  server.addService(
    { GetTask: { path: codec.path, requestStream: false, responseStream: false, originalName: 'GetTask', requestSerialize: (j: JsonValue) => Buffer.from(codec.encodeRequest(j)), requestDeserialize: (b: Buffer) => codec.decodeRequest(b), responseSerialize: (j: JsonValue) => Buffer.from(codec.encodeResponse(j)), responseDeserialize: (b: Buffer) => codec.decodeResponse(b) } },
    { GetTask: (_call: grpc.ServerUnaryCall<JsonValue, JsonValue>, done: grpc.sendUnaryData<JsonValue>) => done(null, { id: 't-tls', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } }) },
  );
  const credentials = grpc.ServerCredentials.createSsl(Buffer.from(certs.ca), [{ cert_chain: Buffer.from(certs.serverCert), private_key: Buffer.from(certs.serverKey) }], true);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', credentials, (e, p) => (e ? reject(e) : resolve(p))));
  relay = createServer((down) => {
    connections += 1;
    const up = createConnection(port, '127.0.0.1');
    for (const s of [down, up]) {
      relayed.add(s);
      s.once('close', () => relayed.delete(s));
      s.on('error', () => (s === up ? down : up).destroy());
    }
    down.pipe(up).pipe(down);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  relayPort = typeof address === 'object' && address !== null ? address.port : 0;
});

afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    relay.close(() => resolve());
    for (const s of relayed) s.destroy();
  });
  server.forceShutdown();
  certs.cleanup();
});

function client(url: string, options: ClientOptions): A2AClient {
  const card = { name: 'tls-agent', supportedInterfaces: [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0' }] };
  const c = new A2AClient(card, { circuitBreaker: false, ...options });
  closers.push(() => c.close());
  return c;
}


describe('gRPC over TLS (private CA, mutual TLS)', () => {
  it.each([
    ['grpcs://', 'a client key', () => ({ ca: certs.ca, cert: certs.clientCert, key: certs.clientKey })],
    ['https://', 'an encrypted client key and its passphrase', () => ({ ca: certs.ca, cert: certs.clientCert, key: certs.clientKeyEncrypted, passphrase: certs.passphrase })],
  ])('%s with the CA and %s: the call works', async (scheme, _label, tls) => {
    const c = client(`${scheme}127.0.0.1:${relayPort}`, { tls: tls() });
    const task = await c.getTask({ id: 't-tls' });
    expect(task).toMatchObject({ id: 't-tls', status: { state: 'completed' } });
  });

  it.each([
    ['a server certificate no trusted CA signed (no `ca`)', () => ({ cert: certs.clientCert, key: certs.clientKey })],
    ['a server certificate another CA signed', () => ({ ca: certs.otherCa, cert: certs.clientCert, key: certs.clientKey })],
    ['no client certificate where the agent requires one', () => ({ ca: certs.ca })],
  ])('%s: connection / tls, before send, not retried (one attempt)', async (_label, tls) => {
    const c = client(`grpcs://127.0.0.1:${relayPort}`, { tls: tls(), retry: { maxAttempts: 3, baseDelayMs: 10 } });
    const before = connections;
    const error = await rejection(c.getTask({ id: 't-tls' }));
    expect(error).toMatchObject({ kind: 'connection', reason: 'tls', phase: 'before-send', retryable: false });
    expect(error.attempts).toHaveLength(1);
    // Our pipeline made one attempt. grpc-js itself may reconnect once in the background (its own
    // backoff, ~1 s) before the failure reaches us when the machine is loaded: never more.
    expect(connections - before).toBeGreaterThanOrEqual(1);
    expect(connections - before).toBeLessThanOrEqual(2);
  });
});
