import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** A custom route: full control over the response. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A loopback (127.0.0.1, ephemeral port) HTTP server with fault routes:
 * - `/never`            accept the request and never answer
 * - `/stall-headers`    send 200 + headers, then nothing
 * - `/stall-body`       send headers and part of a JSON body, then nothing
 * - `/sse?gaps=a,b,c&end=1` one SSE event after each gap (ms), then stall (or end with `end=1`)
 * - `/reset-before-headers` reset the socket (RST) as soon as the request arrives
 * - `/reset`            send headers and part of the body, then reset the socket (RST)
 * - `/big?bytes=n`      a body of `n` bytes
 * - `/html500`          an HTML page with status 500
 * - `/ok`               `{"ok":true}`
 * plus any route added with {@link FaultServer.route}. It tracks every socket so tests can check
 * that clients closed theirs.
 */
export interface FaultServer {
  url: string;
  port: number;
  /** Sockets currently open on the server side (including idle ones that never carried a request). */
  readonly openSockets: number;
  /** Sockets ever accepted. */
  readonly acceptedSockets: number;
  /** Adds or replaces a custom route (exact path match). */
  route(path: string, handler: RouteHandler): void;
  /**
   * Resolves once every server-side socket that carried a request is closed; rejects after `timeoutMs`.
   *
   * A connection that never carried a request is not waited for: it is a spare the client's pool opened
   * on its own, not the connection of a request the client abandoned. Node 20 and 22's built-in fetch
   * (undici 6) opens one right after every aborted in-flight request (its `Client` re-queues the
   * aborted request when the socket closes, reconnects for it, then drops it) and keeps it idle until
   * its 4 s keep-alive timeout; the aborted request's own connection is closed at once.
   */
  waitForNoSockets(timeoutMs?: number): Promise<void>;
  /** Destroys every socket and stops listening. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts a {@link FaultServer}. */
export async function startFaultServer(): Promise<FaultServer> {
  const sockets = new Set<Socket>();
  /** Open sockets that carried at least one request. */
  const used = new WeakSet<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const routes = new Map<string, RouteHandler>();
  let accepted = 0;
  const later = (ms: number, fn: () => void): ReturnType<typeof setTimeout> => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    return t;
  };

  const server: Server = createServer((req, res) => {
    used.add(req.socket);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const custom = routes.get(url.pathname);
    if (custom) return custom(req, res);
    req.resume();
    switch (url.pathname) {
      case '/never':
        return;
      case '/stall-headers':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        return;
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
        return;
      case '/sse': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        const gaps = (url.searchParams.get('gaps') ?? '').split(',').filter((g) => g !== '').map(Number);
        const end = url.searchParams.get('end') === '1';
        let i = 0;
        let pending: ReturnType<typeof setTimeout> | undefined;
        res.on('close', () => {
          if (pending === undefined) return;
          clearTimeout(pending);
          timers.delete(pending);
        });
        const next = () => {
          const gap = gaps[i];
          if (gap === undefined) {
            if (end) res.end();
            return;
          }
          pending = later(gap, () => {
            pending = undefined;
            if (res.destroyed) return;
            res.write(`id: ${i}\ndata: {"n":${i}}\n\n`);
            i += 1;
            next();
          });
        };
        next();
        return;
      }
      case '/reset-before-headers':
        req.socket.resetAndDestroy();
        return;
      case '/reset':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":', () => later(20, () => req.socket.resetAndDestroy()));
        return;
      case '/big': {
        const bytes = Number(url.searchParams.get('bytes') ?? '0');
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
        res.end(Buffer.alloc(bytes, 0x61));
        return;
      }
      case '/html500':
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end(`<!doctype html><html><body><h1>Internal Server Error</h1>${'x'.repeat(20_000)}</body></html>`);
        return;
      case '/ok':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
        return;
      default:
        res.writeHead(404);
        res.end();
    }
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get openSockets() {
      return sockets.size;
    },
    get acceptedSockets() {
      return accepted;
    },
    route(path, handler) {
      routes.set(path, handler);
    },
    async waitForNoSockets(timeoutMs = 2_000) {
      const until = performance.now() + timeoutMs;
      const busy = (): number => {
        let n = 0;
        for (const s of sockets) if (used.has(s)) n += 1;
        return n;
      };
      while (busy() > 0) {
        if (performance.now() > until) throw new Error(`${busy()} server socket(s) that carried a request still open`);
        await sleep(10);
      }
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/** A loopback port that refuses connections: bind an ephemeral port, note it, close it. */
export async function refusedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A listener where connecting never completes from the client's point of view.
 *
 * Hanging at the SYN level is not possible from Node on Linux loopback: libuv accepts every pending
 * connection as soon as the listen socket is readable, so the accept queue never fills and `backlog`
 * has no effect. Instead this is a plain TCP listener that accepts and never writes a byte; a client
 * told to use `https://` waits forever in the TLS handshake, which both undici and fetch count as
 * part of connecting (undici calls `onRequestStart` only after TLS completes). `url` is that https URL.
 */
export async function startSlowConnectListener(): Promise<{ url: string; port: number; readonly openSockets: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    get openSockets() {
      return sockets.size;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
