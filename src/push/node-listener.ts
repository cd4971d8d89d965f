import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The body of a Node request as a web stream, read as the handler pulls it (backpressure: the
 * socket is paused while nothing is asked for). When the handler stops reading (a refusal, a body
 * over the cap) the rest is never read: the answer closes the connection instead.
 */
function bodyOf(req: IncomingMessage, unread: { value: boolean }): ReadableStream<Uint8Array> {
  let open = true;
  const onData = (chunk: Buffer, controller: ReadableStreamDefaultController<Uint8Array>): void => {
    if (!open) return;
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.pause();
      req.on('data', (chunk: Buffer) => onData(chunk, controller));
      req.once('end', () => {
        unread.value = false;
        if (open) controller.close();
        open = false;
      });
      req.once('error', (error) => {
        if (open) controller.error(error);
        open = false;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      // The handler stopped reading: what still arrives is ignored (Node discards it, or the answer closes the connection).
      open = false;
      req.pause();
    },
  });
}

/**
 * `(req, res)` for `node:http` / express over a web-standard handler: the request becomes a
 * `Request` whose body streams from the socket (the handler's own cap applies while it reads), the
 * `Response` is written back. Node types only: no `node:` module is loaded, so the receiver stays
 * importable on every runtime. Mount it before any body parser (express.json() would consume the body).
 */
export function createNodeListener(handle: (request: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const unread = { value: method !== 'GET' && method !== 'HEAD' };
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
    if (unread.value) {
      init.body = bodyOf(req, unread);
      init.duplex = 'half';
    }
    // The URL is not used for routing here: only its path is the request's.
    const request = new Request(new URL(req.url ?? '/', 'http://localhost'), init);
    void handle(request).then(
      async (response) => {
        const text = await response.text();
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          out[name] = value;
        });
        // A body left unread is not drained: the connection is closed after the answer.
        if (unread.value) out['connection'] = 'close';
        res.writeHead(response.status, out);
        res.end(text);
      },
      (error: unknown) => {
        // handleRequest never rejects; this is the last guard against a crash of the server.
        res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ error: `internal error (${error instanceof Error ? error.name : typeof error})` }));
      },
    );
  };
}
