/**
 * Card fetches follow redirects against real loopback servers, on both engines: two `node:http`
 * servers on different ports are two origins. Same-origin hops keep every header; a cross-origin hop
 * drops the caller's (unless the origin is trusted); loops, other schemes, a missing Location, https→http
 * and a 6th redirect end as kind `card` naming the chain; the deadline, retries, caching and signature
 * verification cover the whole chain.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type A2AClientError, type ClientOptions } from '../../src/index.js';
import { rejection } from '../resilience/fixtures.js';
import { uniqueName } from './harness.js';

const CARD = '/.well-known/agent-card.json';
const ENGINES: ReadonlyArray<[string, ClientOptions]> = [
  ['undici', {}],
  ['fetch', { fetch: globalThis.fetch }],
];
const TOKEN = 'Bearer tok-9f8e7d6c5b4a';
const API_KEY = 'key-1a2b3c4d5e6f';
const COOKIE = 'session=ck-0123456789';
const CALL_HEADER = 'call-55aa66bb77cc';
const SECRETS = [TOKEN, 'tok-9f8e7d6c5b4a', API_KEY, 'ck-0123456789', CALL_HEADER];

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

interface Origin {
  url: string;
  seen: Seen[];
  /** Requests to `path` so far. */
  count(path: string): number;
  route(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
}

const closers: Array<() => Promise<void>> = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});

function track(server: Server): void {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

/** A loopback origin recording every request; unknown paths answer 404. */
async function origin(make: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server = createServer, scheme = 'http'): Promise<Origin> {
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const seen: Seen[] = [];
  const server = make((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    seen.push({ path, headers: req.headers });
    req.resume();
    const handler = routes.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404).end();
  });
  track(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    seen,
    count: (path) => seen.filter((s) => s.path === path).length,
    route: (path, handler) => routes.set(path, handler),
  };
}

function cardJson(rpcUrl: string, name = uniqueName('redir')): string {
  return JSON.stringify({ name, supportedInterfaces: [{ url: rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {} });
}
const serveCard = (rpcUrl: string, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse): void => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(cardJson(rpcUrl));
};
const redirect = (status: number, location: string | undefined, body = '') => (_req: IncomingMessage, res: ServerResponse): void => {
  res.writeHead(status, location === undefined ? {} : { location });
  res.end(body);
};

async function connected(url: string, options: ClientOptions, call = {}): Promise<A2AClient> {
  const client = await A2AClient.connect(url, options, call);
  clients.push(client);
  return client;
}

/** Credentials of every kind the caller can set: static/function `headers` and the call's. */
function withCredentials(base: ClientOptions, fn = false): ClientOptions {
  const headers = { authorization: TOKEN, 'x-api-key': API_KEY, cookie: COOKIE };
  return { ...base, headers: fn ? () => headers : headers };
}
const CALL = { headers: { 'x-call': CALL_HEADER } };

function expectNoSecrets(error: A2AClientError): void {
  const text = `${error.message} ${JSON.stringify(error.toJSON())} ${error.stack ?? ''}`;
  for (const s of SECRETS) expect(text).not.toContain(s);
}

describe.each(ENGINES)('card redirects (%s engine)', (_engine, engine) => {
  it.each([301, 308])('%i to another path on the same origin: connected, every header kept', async (status) => {
    const a = await origin();
    a.route(CARD, redirect(status, '/v2/card.json'));
    a.route('/v2/card.json', serveCard(`${a.url}/rpc`));
    const client = await connected(a.url, withCredentials(engine), CALL);
    expect(client.protocol.url).toBe(`${a.url}/rpc`);
    const target = a.seen.find((s) => s.path === '/v2/card.json');
    expect(target?.headers).toMatchObject({ authorization: TOKEN, 'x-api-key': API_KEY, cookie: COOKIE, 'x-call': CALL_HEADER, 'a2a-version': '1.0' });
    expect(a.count(CARD)).toBe(1);
  });

  it.each([false, true])('a cross-origin redirect drops authorization, cookie and every caller header (headers function: %s)', async (fn) => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, redirect(302, `${b.url}/card.json`));
    b.route('/card.json', serveCard(`${b.url}/rpc`));
    await connected(a.url, withCredentials(engine, fn), CALL);
    expect(a.seen[0]?.headers).toMatchObject({ authorization: TOKEN, 'x-api-key': API_KEY, cookie: COOKIE, 'x-call': CALL_HEADER });
    const got = b.seen[0]?.headers ?? {};
    for (const name of ['authorization', 'x-api-key', 'cookie', 'x-call', 'proxy-authorization']) expect(got[name]).toBeUndefined();
    // The SDK's own headers still go.
    expect(got['a2a-version']).toBe('1.0');
    expect(got.accept).toContain('application/json');
  });

  it('a trusted origin gets the caller headers; an untrusted hop after it drops them for the rest of the chain', async () => {
    const a = await origin();
    const b = await origin();
    const c = await origin();
    a.route(CARD, redirect(307, `${b.url}/card.json`));
    b.route('/card.json', redirect(307, `${c.url}/card.json`));
    c.route('/card.json', redirect(307, `${a.url}/final.json`));
    a.route('/final.json', serveCard(`${a.url}/rpc`));
    await connected(a.url, { ...withCredentials(engine), redirects: { trustedOrigins: [`${b.url}/ignored-path`] } }, CALL);
    expect(b.seen[0]?.headers).toMatchObject({ authorization: TOKEN, 'x-api-key': API_KEY, cookie: COOKIE, 'x-call': CALL_HEADER });
    expect(c.seen[0]?.headers.authorization).toBeUndefined();
    expect(c.seen[0]?.headers['x-api-key']).toBeUndefined();
    // Back on the requested origin after an untrusted hop: still dropped.
    const final = a.seen.find((s) => s.path === '/final.json');
    expect(final?.headers.authorization).toBeUndefined();
    expect(final?.headers.cookie).toBeUndefined();
  });

  it('a relative Location resolves against the URL that sent it; a relative interface URL against the final card URL', async () => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, redirect(301, `${b.url}/agents/x/start.json`));
    b.route('/agents/x/start.json', redirect(302, '../y/card.json?v=2'));
    b.route('/agents/y/card.json', serveCard('rpc'));
    const client = await connected(a.url, engine);
    expect(b.seen.map((s) => s.path)).toEqual(['/agents/x/start.json', '/agents/y/card.json']);
    expect(client.protocol.url).toBe(`${b.url}/agents/y/rpc`);
  });

  it('a 6th redirect ends as kind card naming every URL of the chain; nothing secret in it', async () => {
    const a = await origin();
    a.route(CARD, redirect(302, '/r1?key=q-secret-123'));
    for (let i = 1; i <= 6; i++) a.route(`/r${i}`, redirect(302, `/r${i + 1}`));
    const error = await rejection(connected(`${a.url}?key=${API_KEY}`, withCredentials(engine), CALL));
    expect(error.kind).toBe('card');
    expect(error.agent).toBe(a.url);
    expect(error.redirects).toEqual([`${a.url}${CARD}`, ...[1, 2, 3, 4, 5, 6].map((i) => `${a.url}/r${i}`)]);
    for (const url of error.redirects ?? []) expect(error.message).toContain(url);
    expect(error.message).toMatch(/more than 5 redirects/);
    expect(error.field).toBe('location');
    expect(error.status).toBe(302);
    expect(a.seen).toHaveLength(6);
    expectNoSecrets(error);
    expect(JSON.stringify(error.toJSON())).not.toContain('q-secret-123');
  });

  it('a loop A → B → A ends as kind card naming the loop', async () => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, redirect(301, `${b.url}/bounce`));
    b.route('/bounce', redirect(301, `${a.url}${CARD}`));
    const error = await rejection(connected(a.url, withCredentials(engine)));
    expect(error.kind).toBe('card');
    expect(error.redirects).toEqual([`${a.url}${CARD}`, `${b.url}/bounce`, `${a.url}${CARD}`]);
    expect(error.message).toMatch(/loop/);
    expect(a.count(CARD)).toBe(1);
    expectNoSecrets(error);
  });

  it.each([
    ['ftp://127.0.0.1/card.json', 'ftp:'],
    ['javascript:alert(1)', 'javascript:'],
    ['data:application/json,{"name":"x"}', 'data:'],
  ])('a Location to %s ends as kind card naming the scheme', async (location, scheme) => {
    const a = await origin();
    a.route(CARD, redirect(302, location));
    const error = await rejection(connected(a.url, engine));
    expect(error.kind).toBe('card');
    expect(error.redirects).toEqual([`${a.url}${CARD}`, scheme]);
    expect(error.message).toContain(`a redirect to a ${scheme} URL`);
    expect(a.seen).toHaveLength(1);
  });

  it('a redirect without a Location ends as kind card', async () => {
    const a = await origin();
    a.route(CARD, redirect(303, undefined));
    const error = await rejection(connected(a.url, engine));
    expect(error.kind).toBe('card');
    expect(error.status).toBe(303);
    expect(error.message).toContain('without a Location header');
    expect(error.redirects).toEqual([`${a.url}${CARD}`]);
  });

  it('the deadline bounds a chain of slow hops', async () => {
    const a = await origin();
    for (let i = 0; i < 5; i++) {
      a.route(i === 0 ? CARD : `/slow${i}`, (_req, res) => {
        setTimeout(() => redirect(302, `/slow${i + 1}`)(_req, res), 200);
      });
    }
    const started = performance.now();
    const error = await rejection(connected(a.url, engine, { timeouts: { totalMs: 500 } }));
    const took = performance.now() - started;
    expect(error.kind).toBe('deadline-exceeded');
    expect(took).toBeGreaterThan(400);
    expect(took).toBeLessThan(1_500);
    expect(a.seen.length).toBeLessThanOrEqual(3);
  });

  it("a redirect's body is released unread: a body that never ends does not hold the chain", async () => {
    const a = await origin();
    a.route(CARD, (_req, res) => {
      res.writeHead(301, { location: '/card.json', 'content-type': 'text/html' });
      res.write('x'.repeat(64 * 1024));
    });
    a.route('/card.json', serveCard(`${a.url}/rpc`));
    const started = performance.now();
    await connected(a.url, engine, { timeouts: { readMs: 3_000 } });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('a retry after a 503 at the end of the chain starts the chain over', async () => {
    const a = await origin();
    const b = await origin();
    let n = 0;
    a.route(CARD, redirect(302, `${b.url}/card.json`));
    b.route('/card.json', (req, res) => (n++ === 0 ? redirect(503, undefined)(req, res) : serveCard(`${b.url}/rpc`)(req, res)));
    await connected(a.url, { ...engine, retry: { baseDelayMs: 5, maxDelayMs: 10, budget: false } });
    expect(a.count(CARD)).toBe(2);
    expect(b.count('/card.json')).toBe(2);
  });

  it('a failure after redirects names the chain; a 404 there moves on to the next card path', async () => {
    const a = await origin();
    a.route(CARD, redirect(308, '/gone.json'));
    a.route('/.well-known/agent.json', redirect(308, '/broken.json'));
    a.route('/broken.json', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{not json'));
    const error = await rejection(connected(a.url, engine));
    expect(error.kind).toBe('card');
    expect(error.redirects).toEqual([`${a.url}/.well-known/agent.json`, `${a.url}/broken.json`]);
    expect(error.message).toContain('not valid JSON');
    expect(error.message).toContain(`${a.url}/broken.json`);
  });

  it('refreshCard asks the requested URL again (the cache keys on it) and revalidates where the redirect leads', async () => {
    const a = await origin();
    const b = await origin();
    a.route(CARD, redirect(302, `${b.url}/card.json`));
    const body = cardJson(`${b.url}/rpc`);
    b.route('/card.json', (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'cache-control': 'max-age=0' }).end(body);
    });
    const client = await connected(a.url, engine);
    const card = await client.refreshCard();
    expect(card.name).toBe(client.card.name);
    expect(a.count(CARD)).toBe(2);
    expect(b.seen.map((s) => s.headers['if-none-match'])).toEqual([undefined, '"v1"']);
  });

  it('card signatures are verified on the card the last hop served', async () => {
    const a = await origin();
    a.route(CARD, redirect(301, '/card.json'));
    a.route('/card.json', serveCard(`${a.url}/rpc`));
    const error = await rejection(connected(a.url, { ...engine, cardSignature: { keys: [], required: true } }));
    expect(error.kind).toBe('card');
    expect(error.message).toMatch(/sign/i);
    expect(error.redirects).toEqual([`${a.url}${CARD}`, `${a.url}/card.json`]);
  });

  it('a Location with credentials is refused; neither they nor its query reach the error', async () => {
    const a = await origin();
    a.route(CARD, redirect(302, `${a.url.replace('//', '//user:pw-77x88y99z@')}/card.json?sig=s-123456789#frag`));
    a.route('/card.json', serveCard(`${a.url}/rpc`));
    const error = await rejection(connected(a.url, engine));
    expect(error.kind).toBe('card');
    expect(error.message).toContain('credentials');
    expect(error.redirects).toEqual([`${a.url}${CARD}`, `${a.url}/card.json`]);
    const text = `${error.message} ${JSON.stringify(error.toJSON())} ${error.stack ?? ''}`;
    expect(text).not.toContain('pw-77x88y99z');
    expect(text).not.toContain('s-123456789');
    expect(a.seen).toHaveLength(1);
  });

  it('a query secret in a Location never reaches the error', async () => {
    const a = await origin();
    a.route(CARD, redirect(302, '/next.json?sig=s-123456789'));
    a.route('/next.json', redirect(302, 'ftp://127.0.0.1/card.json?sig=s-987654321'));
    const error = await rejection(connected(a.url, engine));
    expect(error.redirects).toEqual([`${a.url}${CARD}`, `${a.url}/next.json`, 'ftp:']);
    const text = `${error.message} ${JSON.stringify(error.toJSON())} ${error.stack ?? ''}`;
    expect(text).not.toContain('s-123456789');
    expect(text).not.toContain('s-987654321');
  });
});

describe('card redirect options and downgrades', () => {
  it('an entry of redirects.trustedOrigins that is not an http(s) URL is refused before anything is sent', async () => {
    const a = await origin();
    const error = await rejection(A2AClient.connect(a.url, { redirects: { trustedOrigins: ['cards.example.com'] } }));
    expect(error.kind).toBe('unsupported');
    expect(error.field).toBe('redirects.trustedOrigins');
    expect(a.seen).toHaveLength(0);
  });

  const openssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      // No openssl on this machine: the https test below is skipped.
      return false;
    }
  })();

  it.skipIf(!openssl)('https → http is refused even to a trusted origin (undici engine; certificate made at test time)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-redirect-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1', '-days', '1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
      const plain = await origin();
      const secure = await origin((handler) => createHttpsServer(tls, handler) as unknown as Server, 'https');
      secure.route(CARD, redirect(301, `${plain.url}/card.json`));
      plain.route('/card.json', serveCard(`${plain.url}/rpc`));
      const dispatcher = new Agent({ connect: { ca: tls.cert } });
      closers.push(() => dispatcher.close());
      const error = await rejection(A2AClient.connect(secure.url, { ...withCredentials({}), dispatcher, redirects: { trustedOrigins: [plain.url] } }));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('from https to http');
      expect(error.redirects).toEqual([`${secure.url}${CARD}`, `${plain.url}/card.json`]);
      expect(plain.seen).toHaveLength(0);
      expect(secure.seen).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
