import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectTracker, SOCKET_HIGH_WATER_BYTES } from '../../src/transport/connect-tracker.js';
import { generateTestCerts, type TestCerts } from '../helpers/test-certs.js';

/** Connects through `tracker` to 127.0.0.1:`port`; resolves the socket undici would get. */
function connect(tracker: ConnectTracker, protocol: 'http:' | 'https:', port: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    tracker.connect({ hostname: '127.0.0.1', host: `127.0.0.1:${port}`, protocol, port: String(port), servername: undefined }, (error, socket) => {
      if (error !== null) reject(error);
      else resolve(socket);
    });
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * The sockets of the engine's own pool buffer only SOCKET_HIGH_WATER_BYTES on their own: a response
 * paused to let back-to-back frames gather (or for backpressure) stops reading at once, so the frames
 * wait in the kernel rather than being read one by one into the socket.
 */
describe('ConnectTracker sockets', () => {
  let certs: TestCerts;
  const servers: Server[] = [];
  beforeAll(() => {
    certs = generateTestCerts();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    certs.cleanup();
  });

  it(`buffer ${SOCKET_HIGH_WATER_BYTES} bytes over TCP`, async () => {
    const server = createNetServer((s) => s.end());
    servers.push(server);
    const port = await listen(server);
    const socket = await connect(new ConnectTracker(10_000), 'http:', port);
    expect(socket.readableHighWaterMark).toBe(SOCKET_HIGH_WATER_BYTES);
    socket.destroy();
  });

  it(`buffer ${SOCKET_HIGH_WATER_BYTES} bytes over TLS, with the caller's TLS settings kept`, async () => {
    const server = createTlsServer({ cert: certs.serverCert, key: certs.serverKey }, (s) => s.end());
    servers.push(server);
    const port = await listen(server);
    const socket = await connect(new ConnectTracker(10_000, { ca: certs.ca }), 'https:', port);
    expect(socket.readableHighWaterMark).toBe(SOCKET_HIGH_WATER_BYTES);
    // The private CA was used: the handshake succeeded against it.
    expect((socket as import('node:tls').TLSSocket).authorized).toBe(true);
    socket.destroy();
  });
});
