import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

/**
 * How {@link CuttingProxy.cutOnce} cuts the request that carries `marker`:
 *
 * - `before`: both sockets are destroyed without forwarding the chunk that completes the marker — the
 *   agent never sees the request (bytes of it forwarded earlier are an incomplete request).
 * - `after`: the chunk is forwarded (and whatever the client writes next on that connection), the
 *   server's answer on that connection is dropped, then, once `afterForward()` settles, both sockets
 *   are destroyed — the agent ran it, the client never gets an answer.
 * - `mid-response`: like `after`, but the server's answer is relayed as it comes until
 *   `afterForward()` settles (e.g. once the client read the first event of a stream), then both sockets
 *   are destroyed — a stream broken after it started.
 */
export interface CutRule {
  /** Text looked for (as UTF-8 bytes) in the client→server bytes of every connection. */
  marker: string;
  /** Where to cut (see above). */
  when: 'before' | 'after' | 'mid-response';
  /**
   * `after` / `mid-response`: awaited between forwarding the request and cutting (e.g. until the agent
   * got the message). A rejection cuts at once too. @default a 100 ms wait
   */
  afterForward?: () => Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 in front of another loopback port that cuts one chosen request, for any
 * binding: it scans the raw client→server bytes (HTTP/1.1 bodies of JSON-RPC and REST, the
 * uncompressed protobuf in gRPC's HTTP/2 DATA frames) for a marker string, across chunk boundaries.
 * Server→client bytes are relayed untouched, except on a connection being cut (see {@link CutRule}).
 */
export interface CuttingProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /**
   * Arms one cut: the first later occurrence of `rule.marker`, on any connection, is cut; later
   * occurrences (a repeat of the request, a lookup) pass through. Arming again replaces an unused rule.
   */
  cutOnce(rule: CutRule): void;
  /** Cuts made so far. */
  readonly cuts: number;
  /** Resolves once the armed cut has been made and both its sockets are destroyed. */
  cutDone(): Promise<void>;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Stops listening and destroys every relayed connection. */
  close(): Promise<void>;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a cutting relay to `127.0.0.1:<targetPort>` on an ephemeral port. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  let armed: { rule: CutRule; bytes: Buffer; done: () => void } | undefined;
  let cuts = 0;
  let connections = 0;
  let lastCut: Promise<void> = Promise.resolve();

  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A relayed connection torn down by either side is expected here; the other side sees the close.
    socket.on('error', () => socket.destroy());
  };

  const onConnection = (client: Socket): void => {
    connections += 1;
    track(client);
    const upstream = new Socket();
    track(upstream);
    upstream.connect(targetPort, '127.0.0.1');
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    // Held: the server's answer on this connection is dropped (an `after` cut in progress).
    let holdAnswer = false;
    let cutting = false;
    let tail = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      if (!holdAnswer && !client.destroyed) client.write(chunk);
    });
    const destroyBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (cutting) {
        // The rest of a request cut `after` / `mid-response` still reaches the agent.
        if (!upstream.destroyed) upstream.write(chunk);
        return;
      }
      const current = armed;
      if (current !== undefined) {
        const scanned = Buffer.concat([tail, chunk]);
        if (scanned.includes(current.bytes)) {
          armed = undefined;
          cuts += 1;
          cutting = true;
          if (current.rule.when === 'before') {
            destroyBoth();
            current.done();
            return;
          }
          holdAnswer = current.rule.when === 'after';
          upstream.write(chunk);
          const wait = current.rule.afterForward ?? (() => pause(100));
          void wait().catch(() => undefined).then(() => {
            destroyBoth();
            current.done();
          });
          return;
        }
        const keep = current.bytes.length - 1;
        tail = keep > 0 ? scanned.subarray(Math.max(0, scanned.length - keep)) : Buffer.alloc(0);
      }
      if (!upstream.destroyed) upstream.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  };

  const server: Server = createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cutOnce(rule) {
      if (rule.marker.length === 0) throw new Error('cutOnce: empty marker');
      let done!: () => void;
      lastCut = new Promise<void>((resolve) => {
        done = resolve;
      });
      armed = { rule, bytes: Buffer.from(rule.marker, 'utf8'), done };
    },
    get cuts() {
      return cuts;
    },
    get connections() {
      return connections;
    },
    cutDone: () => lastCut,
    async close() {
      if (closed) return;
      closed = true;
      armed?.done();
      armed = undefined;
      await new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      });
    },
  };
}
