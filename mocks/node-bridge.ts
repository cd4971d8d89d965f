/**
 * Serves msw request handlers on a real `node:http` server on 127.0.0.1: each Node request becomes a
 * WHATWG `Request`, is resolved with msw's `getResponse`, and the `Response` body is streamed back chunk
 * by chunk (SSE flows event by event). A network-error response or a body that errors destroys the socket.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';

/** A running loopback server. */
export interface ListeningServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Closes the server and destroys every socket, hanging ones included. Resolves once closed. */
  close: () => Promise<void>;
}

/** Options of {@link serveHandlers}. */
export interface ServeOptions {
  /** Origin the handlers match (the request URL's origin is rewritten to it), e.g. `http://a.agents.test`. */
  handlerOrigin: string;
  /** Answer CORS preflights and let any origin read every response (see {@link MockListenOptions}). */
  cors?: boolean;
}

/** Options of `MockAgent.listen()`. */
export interface MockListenOptions {
  /**
   * Serve browsers on other origins: preflights (`OPTIONS`) are answered with 204, allowing the method
   * and headers asked for, and every response carries `Access-Control-Allow-Origin: *` and
   * `Access-Control-Expose-Headers: *` (so a page can read `Retry-After`). For a coordinator running in
   * a browser page, tested against a loopback agent on another port.
   * @default false
   */
  cors?: boolean;
}

const CORS_HEADERS: Readonly<Record<string, string>> = { 'access-control-allow-origin': '*', 'access-control-expose-headers': '*' };

const SKIP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** Starts a loopback server for `handlers` on an ephemeral port. Rejects when the port cannot be bound. */
export function serveHandlers(handlers: () => readonly RequestHandler[], options: ServeOptions): Promise<ListeningServer> {
  return listenLoopback((req, res) => {
    if (options.cors === true) {
      for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        preflight(req, res);
        return;
      }
    }
    void bridge(req, res, handlers(), options.handlerOrigin);
  });
}

/**
 * Starts a `node:http` server with `onRequest` on 127.0.0.1 and an ephemeral port; `close()` also
 * destroys open sockets (hanging ones included). Rejects when the port cannot be bound.
 */
export async function listenLoopback(onRequest: (req: IncomingMessage, res: ServerResponse) => void): Promise<ListeningServer> {
  const sockets = new Set<Socket>();
  const server = createServer(onRequest);
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
    return closing;
  };
  return { url: `http://127.0.0.1:${port}`, close };
}

/** Allows what the preflight asks for (any method, any header), for a day. */
function preflight(req: IncomingMessage, res: ServerResponse): void {
  const headers: Record<string, string> = { 'access-control-allow-methods': String(req.headers['access-control-request-method']), 'access-control-max-age': '86400' };
  const asked = req.headers['access-control-request-headers'];
  if (asked !== undefined) headers['access-control-allow-headers'] = asked;
  res.writeHead(204, headers).end();
}

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const joined = Buffer.concat(chunks);
  const out = new Uint8Array(new ArrayBuffer(joined.length));
  out.set(joined);
  return out;
}

async function bridge(req: IncomingMessage, res: ServerResponse, handlers: readonly RequestHandler[], origin: string): Promise<void> {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined || SKIP.has(k)) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
    const request = new Request(new URL(req.url ?? '/', origin), { method, headers, body, signal: abort.signal });
    const response = await getResponse([...handlers], request);
    if (response === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no mock handler');
      return;
    }
    if (response.type === 'error') {
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => {
      out[k] = v;
    });
    res.writeHead(response.status, out);
    res.flushHeaders();
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    abort.signal.addEventListener('abort', () => {
      reader.cancel().catch((error: unknown) => void error);
    });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Wait until the chunk is handed to the socket: a later drop must not discard events already sent.
      await new Promise<void>((resolve) => res.write(value, () => resolve()));
    }
    res.end();
  } catch (error: unknown) {
    // A dropped mock stream, an aborted request or a handler failure: the client sees a reset.
    void error;
    req.socket.destroy();
  }
}
