/**
 * Where the caller's headers go on RPC calls (docs/networks.md, "Credentials"): to the interface on
 * the origin the caller named, on a trusted origin, or of a card the caller handed over — never to an
 * interface on another origin that a card (redirected or not) names. Real loopback servers: two
 * `node:http` servers on different ports of 127.0.0.1 are two origins.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ClientOptions } from '../../src/index.js';
import { credentialsAllowed } from '../../src/client/credential-scope.js';
import { uniqueName } from './harness.js';

const CARD = '/.well-known/agent-card.json';
const TOKEN = 'Bearer tok-5e4d3c2b1a';
const API_KEY = 'key-6f7e8d9c0b';
const CALL_HEADER = 'call-a1b2c3d4';
const CALLER_HEADERS = ['authorization', 'x-api-key', 'x-call'];
const TASK = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };

interface Origin {
  url: string;
  /** Headers of each request to `path`. */
  seen(path: string): IncomingHttpHeaders[];
  route(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
}

const closers: Array<() => Promise<void>> = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback origin recording every request; `/rpc` answers GetTask (JSON-RPC v1.0), unknown paths 404. */
async function origin(): Promise<Origin> {
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push({ path, headers: req.headers });
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    req.resume();
    res.writeHead(404).end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  routes.set('/rpc', answerGetTask);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: (path) => seen.filter((s) => s.path === path).map((s) => s.headers),
    route: (path, handler) => routes.set(path, handler),
  };
}

function answerGetTask(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: TASK }));
  });
}

const card = (rpcUrl: string) => ({ name: uniqueName('scope'), supportedInterfaces: [{ url: rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {} });
const serveCard = (rpcUrl: string) => (req: IncomingMessage, res: ServerResponse): void => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card(rpcUrl)));
};
const redirectTo = (location: string) => (req: IncomingMessage, res: ServerResponse): void => {
  req.resume();
  res.writeHead(302, { location }).end();
};

/** Static or function `headers`, and the call's. */
function withCredentials(fn: boolean, extra: ClientOptions = {}): ClientOptions {
  const headers = { authorization: TOKEN, 'x-api-key': API_KEY };
  return { ...extra, retry: false, headers: fn ? () => headers : headers };
}
const CALL = { headers: { 'x-call': CALL_HEADER } };

async function getTaskVia(client: A2AClient): Promise<void> {
  clients.push(client);
  expect((await client.getTask({ id: 'task-1' }, CALL)).id).toBe('task-1');
  // A cancel (another method, the same requests) follows the same rule.
  await client.cancelTask({ id: 'task-1' }, CALL);
}

function expectWithout(headers: IncomingHttpHeaders[]): void {
  expect(headers.length).toBeGreaterThan(0);
  for (const h of headers) {
    for (const name of CALLER_HEADERS) expect(h[name], name).toBeUndefined();
    // The SDK's own headers still go.
    expect(h['a2a-version']).toBe('1.0');
  }
}

function expectWith(headers: IncomingHttpHeaders[]): void {
  expect(headers.length).toBeGreaterThan(0);
  for (const h of headers) expect(h).toMatchObject({ authorization: TOKEN, 'x-api-key': API_KEY, 'x-call': CALL_HEADER });
}

describe.each([false, true])('credential scope of RPC calls (headers function: %s)', (fn) => {
  it('a card redirected A → B (untrusted) naming B/rpc: calls to B carry none of the caller headers', async () => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, redirectTo(`${b.url}/card.json`));
    b.route('/card.json', serveCard(`${b.url}/rpc`));
    await getTaskVia(await A2AClient.connect(a.url, withCredentials(fn), CALL));
    expect(b.seen('/card.json')[0]?.authorization).toBeUndefined();
    expectWithout(b.seen('/rpc'));
  });

  it('a card on A naming an interface on another, untrusted origin B: calls to B carry none of the caller headers', async () => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, serveCard(`${b.url}/rpc`));
    await getTaskVia(await A2AClient.connect(a.url, withCredentials(fn), CALL));
    expect(a.seen(CARD)[0]?.authorization).toBe(TOKEN);
    expectWithout(b.seen('/rpc'));
  });

  it('the interface on a trusted origin (redirects.trustedOrigins) gets them, redirected there or not', async () => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, serveCard(`${b.url}/rpc`));
    await getTaskVia(await A2AClient.connect(a.url, withCredentials(fn, { redirects: { trustedOrigins: [b.url] } }), CALL));
    expectWith(b.seen('/rpc'));
    const c = await origin();
    const d = await origin();
    c.route(CARD, redirectTo(`${d.url}/card.json`));
    d.route('/card.json', serveCard(`${d.url}/rpc`));
    await getTaskVia(await A2AClient.connect(c.url, withCredentials(fn, { redirects: { trustedOrigins: [d.url] } }), CALL));
    expectWith(d.seen('/rpc'));
  });

  it('the interface on the origin the caller named gets them, even when the card was served elsewhere', async () => {
    const a = await origin();
    a.route(CARD, serveCard(`${a.url}/rpc`));
    await getTaskVia(await A2AClient.connect(a.url, withCredentials(fn), CALL));
    expectWith(a.seen('/rpc'));
    const b = await origin();
    const c = await origin();
    b.route(CARD, redirectTo(`${c.url}/card.json`));
    c.route('/card.json', serveCard(`${b.url}/rpc`));
    await getTaskVia(await A2AClient.connect(b.url, withCredentials(fn), CALL));
    expectWith(b.seen('/rpc'));
  });

  it('a card the caller hands over is its own choice: its interface gets them, whatever the origin', async () => {
    const b = await origin();
    await getTaskVia(new A2AClient(card(`${b.url}/rpc`), withCredentials(fn)));
    expectWith(b.seen('/rpc'));
  });
});

describe('credentialsAllowed (the rule, origin by origin)', () => {
  const scope = (named: string | undefined, trusted: string[] = [], signed = false) => ({ named, trusted: new Set(trusted), signed });
  it.each([
    ['the named origin', 'https://a.example', scope('https://a.example/agents/x'), true],
    ['another port of the named host', 'https://a.example:8443', scope('https://a.example'), false],
    ['http where https was named', 'http://a.example', scope('https://a.example'), false],
    ['another host', 'https://b.example', scope('https://a.example'), false],
    ['a trusted origin', 'https://b.example', scope('https://a.example', ['https://b.example']), true],
    ['any origin of a signed card', 'https://b.example', scope('https://a.example', [], true), true],
    ['any origin of a card handed over', 'https://b.example', scope(undefined), true],
    ['gRPC on the named host, another port', 'grpcs://a.example:50051', scope('https://a.example'), true],
    ['plaintext gRPC where https was named', 'grpc://a.example:50051', scope('https://a.example'), false],
    ['plaintext gRPC on a named http host', 'grpc://127.0.0.1:50051', scope('http://127.0.0.1:4000'), true],
    ['gRPC on another host', 'grpcs://b.example:50051', scope('https://a.example'), false],
    ['gRPC on a trusted origin', 'grpcs://b.example:50051', scope('https://a.example', ['https://b.example:50051']), true],
  ] as const)('%s: %s', (_what, origin, s, allowed) => {
    expect(credentialsAllowed(origin, s)).toBe(allowed);
  });
});
