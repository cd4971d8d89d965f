/**
 * A small HTTP proxy on 127.0.0.1 for tests: CONNECT tunnels (piped to a `node:net` socket) and
 * absolute-form forward requests (relayed with `node:http`, streamed, not buffered). It records what
 * it was asked, can require `Proxy-Authorization`, refuse with any status, stay silent after
 * accepting TCP, and drop every relayed connection at once (a proxy dying mid-stream).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** How the proxy behaves. */
export interface ProxyBehaviour {
  /** Required `Proxy-Authorization` value; others get 407 with a `Proxy-Authenticate` challenge. */
  auth?: string;
  /** Answer every CONNECT and forward request with this status instead (e.g. 403). */
  refuse?: number;
  /** Accept TCP, read the request, never answer. */
  silent?: boolean;
}

/** A running proxy. */
export interface HttpProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  behaviour: ProxyBehaviour;
  /** `host:port` of each CONNECT request, in order. */
  readonly tunnels: string[];
  /** The absolute URL of each forwarded request, in order. */
  readonly forwards: string[];
  /** Every `Proxy-Authorization` value received (`''` when absent). */
  readonly authorizations: string[];
  /** Client connections currently open to the proxy. */
  readonly openSockets: number;
  /** Client connections that sent a CONNECT and are still open. */
  readonly openTunnels: number;
  /** Destroys every open connection (tunnels and forwards); keeps listening. */
  dropAll(): void;
  close(): Promise<void>;
}

/** Starts a proxy on an ephemeral loopback port. */
export async function startHttpProxy(behaviour: ProxyBehaviour = {}): Promise<HttpProxy> {
  const tunnels: string[] = [];
  const forwards: string[] = [];
  const authorizations: string[] = [];
  const sockets = new Set<Duplex>();
  const tunnelSockets = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A relayed connection torn down by either side is expected here; the other side sees the close.
    socket.on('error', () => socket.destroy());
  };
  const allowed = (req: IncomingMessage): number | undefined => {
    const auth = req.headers['proxy-authorization'] ?? '';
    authorizations.push(auth);
    if (behaviour.refuse !== undefined) return behaviour.refuse;
    if (behaviour.auth !== undefined && auth !== behaviour.auth) return 407;
    return undefined;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    forwards.push(req.url ?? '');
    if (behaviour.silent) return;
    const refused = allowed(req);
    if (refused !== undefined) {
      res.writeHead(refused, refused === 407 ? { 'proxy-authenticate': 'Basic realm="test"' } : {}).end(`refused ${refused}`);
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnels.push(req.url ?? '');
    tunnelSockets.add(client);
    client.once('close', () => tunnelSockets.delete(client));
    // Silent: read and drop what comes; the HTTP server's sockets allow half-open, so end on the client's end.
    if (behaviour.silent) {
      client.once('end', () => client.destroy());
      client.resume();
      return;
    }
    const refused = allowed(req);
    if (refused !== undefined) {
      client.end(`HTTP/1.1 ${refused} Refused\r\n${refused === 407 ? 'proxy-authenticate: Basic realm="test"\r\n' : ''}content-length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = splitAuthority(req.url ?? '');
    const upstream: Socket = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    behaviour,
    tunnels,
    forwards,
    authorizations,
    get openSockets() {
      return [...sockets].filter((s) => !s.destroyed).length;
    },
    get openTunnels() {
      return [...tunnelSockets].filter((s) => !s.destroyed).length;
    },
    dropAll() {
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function splitAuthority(authority: string): [string, string] {
  const colon = authority.lastIndexOf(':');
  return [authority.slice(0, colon).replace(/^\[|\]$/g, ''), authority.slice(colon + 1)];
}
