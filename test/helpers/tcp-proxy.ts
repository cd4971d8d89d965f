import { createServer, Socket, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of another loopback port, that can go dark and come back on the
 * same port: while dark, connections are refused (nothing listens) — a server restarting.
 */
export interface TcpProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops listening and destroys every relayed connection: new connections are refused. */
  goDark(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Starts a relay to `127.0.0.1:<targetPort>` on an ephemeral port. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A relayed connection torn down by either side is expected here; the other side sees the close.
    socket.on('error', () => socket.destroy());
  };
  const onConnection = (client: Socket): void => {
    track(client);
    const upstream = new Socket();
    track(upstream);
    upstream.connect(targetPort, '127.0.0.1');
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };
  let server = createServer(onConnection);
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  let dark = false;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async goDark() {
      if (dark) return;
      dark = true;
      await stop();
    },
    async comeBack() {
      if (!dark) return;
      dark = false;
      server = createServer(onConnection);
      await listen(server, port);
    },
    async close() {
      if (!dark) await stop();
      dark = true;
    },
  };
}
