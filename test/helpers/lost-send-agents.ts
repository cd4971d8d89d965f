/**
 * The official `@a2a-js/sdk` servers (HTTP: JSON-RPC and REST; gRPC) behind a {@link CuttingProxy},
 * their cards listing the proxy, so that a client reaches the agent through it and a test can lose one
 * send on the way (`before` the agent got it, `after` it ran it). Optionally a small node:http front
 * between the proxy and the HTTP server that refuses `ListTasks` with a 403 (an agent that will not
 * tell what became of a send). Everything listens on 127.0.0.1 only.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AgentCard } from '@a2a-js/sdk';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy.js';
import { startOfficialGrpcServer } from './official-grpc-server.js';
import { startOfficialServer, type OfficialServerOptions, type ReceivedMessage } from './official-server.js';

/** An agent behind a cutting proxy. */
export interface AgentBehindProxy {
  /** Where the card is (the real server: card fetches never go through the proxy). */
  baseUrl: string;
  proxy: CuttingProxy;
  /** Every user message the agent got, in order. */
  received: ReceivedMessage[];
  /** Requests the `refuseListTasks` front refused (0 without it). */
  readonly refused: number;
  close(): Promise<void>;
}

/** Options for {@link startHttpAgentBehindProxy}. */
export interface HttpAgentOptions extends Omit<OfficialServerOptions, 'card'> {
  /** Put a node:http front between the proxy and the server that answers `ListTasks` with a 403. */
  refuseListTasks?: boolean;
}

/** How many of `received` carry exactly `text`. */
export function timesReceived(received: readonly ReceivedMessage[], text: string): number {
  return received.filter((m) => m.text === text).length;
}

/** Polls `check` every 5 ms until it holds. @throws after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`waitUntil: ${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
}

/** A relay to `127.0.0.1:<targetPort>` that refuses JSON-RPC `ListTasks` and REST `GET …/tasks` with a 403. */
async function startRefusingFront(targetPort: number): Promise<{ port: number; refused: () => number; close: () => Promise<void> }> {
  let refused = 0;
  const refuse = (res: ServerResponse, body: string): void => {
    refused += 1;
    res.writeHead(403, { 'content-type': 'application/json' }).end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method === 'GET' && /\/tasks$/.test(path)) {
        refuse(res, JSON.stringify({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'listing tasks is not allowed' } }));
        return;
      }
      if (req.method === 'POST' && body.length > 0) {
        try {
          const parsed: unknown = JSON.parse(body.toString('utf8'));
          if (typeof parsed === 'object' && parsed !== null && (parsed as { method?: unknown }).method === 'ListTasks') {
            refuse(res, JSON.stringify({ jsonrpc: '2.0', id: (parsed as { id?: unknown }).id ?? null, error: { code: -32600, message: 'listing tasks is not allowed' } }));
            return;
          }
        } catch {
          // Not JSON: relayed as is.
        }
      }
      const headers = { ...req.headers };
      delete headers['content-length'];
      const upstream = request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: { ...headers, 'content-length': String(body.length) } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  const port = await listen(server);
  return {
    port,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * Starts the official HTTP server with a cutting proxy in front (and the 403 front between them with
 * `refuseListTasks`); the served card (v1.0 and v0.3) lists the proxy's URLs.
 */
export async function startHttpAgentBehindProxy(opts: HttpAgentOptions = {}): Promise<AgentBehindProxy> {
  let card: AgentCard | undefined;
  // The request handler keeps (and serves) this very object: its URLs are pointed at the proxy below.
  const server = await startOfficialServer({ ...opts, card: (c) => (card = c) });
  const serverPort = Number(new URL(server.baseUrl).port);
  const front = opts.refuseListTasks ? await startRefusingFront(serverPort) : undefined;
  const proxy = await startCuttingProxy(front?.port ?? serverPort);
  for (const i of card?.supportedInterfaces ?? []) i.url = i.url.replace(server.baseUrl, proxy.url);
  return {
    baseUrl: server.baseUrl,
    proxy,
    received: server.received,
    get refused() {
      return front?.refused() ?? 0;
    },
    async close() {
      await proxy.close();
      await front?.close();
      await server.close();
    },
  };
}

/** Starts the official gRPC server behind a cutting proxy (the card lists the proxy's address). */
export async function startGrpcAgentBehindProxy(opts: { chunkDelayMs?: number } = {}): Promise<AgentBehindProxy> {
  const server = await startOfficialGrpcServer({ ...opts, cuttingProxy: true });
  const proxy = server.cutting;
  if (proxy === undefined) throw new Error('no cutting proxy');
  return { baseUrl: server.baseUrl, proxy, received: server.executor.received, refused: 0, close: () => server.close() };
}
