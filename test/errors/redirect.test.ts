/**
 * RPC calls never follow redirects, against real loopback servers on both engines and both
 * bindings: a 301/302/303/307/308 is kind `http` carrying `location`, sent once (not retried, even
 * with a Retry-After or `retry.ambiguous`), not a circuit-breaker failure, and the target never sees
 * the request — not even through a caller's dispatcher composed with undici's redirect interceptor.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, interceptors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type ClientOptions } from '../../src/index.js';
import { collect, uniqueName } from '../client/harness.js';
import { rejection } from '../resilience/fixtures.js';

const ENGINES: ReadonlyArray<[string, ClientOptions]> = [
  ['undici', {}],
  ['fetch', { fetch: globalThis.fetch }],
];
const BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;
const TOKEN = 'Bearer rpc-tok-31415926';
const message = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] } };

interface Loopback {
  url: string;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders }>;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback server answering every request with `reply`, recording each. */
async function loopback(reply: (req: IncomingMessage, res: ServerResponse) => void): Promise<Loopback> {
  const requests: Loopback['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => reply(req, res));
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const moved = (status: number, location: string, extra: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse): void => {
  res.writeHead(status, { location, 'content-type': 'text/html', ...extra });
  res.end('<a href="elsewhere">moved</a>');
};

function client(url: string, binding: (typeof BINDINGS)[number], options: ClientOptions): A2AClient {
  const card = { name: uniqueName('rpc-redir'), supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: '1.0' }], capabilities: { streaming: true } };
  const c = new A2AClient(card, { headers: { authorization: TOKEN }, ...options });
  closers.push(() => c.close());
  return c;
}

describe.each(ENGINES)('RPC redirects (%s engine)', (_name, engine) => {
  describe.each(BINDINGS)('%s', (binding) => {
    it('a 307 on sendMessage is kind http with location, sent exactly once, and the target never sees it', async () => {
      const target = await loopback((_req, res) => res.writeHead(200).end('{}'));
      const agent = await loopback(moved(307, `${target.url}/v2/rpc`));
      const c = client(`${agent.url}/rpc`, binding, { ...engine, retry: { maxAttempts: 3, ambiguous: true, baseDelayMs: 5, budget: false } });
      const error = await rejection(c.sendMessage(message));
      expect(error.kind).toBe('http');
      expect(error.status).toBe(307);
      expect(error.location).toBe(`${target.url}/v2/rpc`);
      expect(error.method).toBe('sendMessage');
      expect(error.retryable).toBe(false);
      expect(error.message).toContain("agent's interface URL moved");
      expect(error.message).toContain('RPC redirects are not followed');
      expect(agent.requests).toHaveLength(1);
      expect(agent.requests[0]?.method).toBe('POST');
      expect(target.requests).toHaveLength(0);
      expect(JSON.stringify(error.toJSON())).not.toContain('rpc-tok-31415926');
    });

    it('a 308 on a stream with a relative Location is the same error, the location resolved against the interface URL', async () => {
      const agent = await loopback(moved(308, '/moved/here'));
      const c = client(`${agent.url}/rpc`, binding, { ...engine, retry: { maxAttempts: 3, ambiguous: true, baseDelayMs: 5, budget: false } });
      const error = await rejection(collect(c.sendStreamingMessage(message)));
      expect(error.kind).toBe('http');
      expect(error.status).toBe(308);
      expect(error.location).toBe(`${agent.url}/moved/here`);
      expect(agent.requests).toHaveLength(1);
    });
  });

  it('a redirect on an idempotent read with Retry-After is not retried either', async () => {
    const agent = await loopback(moved(302, '/elsewhere', { 'retry-after': '0' }));
    const c = client(`${agent.url}/rpc`, 'JSONRPC', { ...engine, retry: { maxAttempts: 4, baseDelayMs: 5, budget: false } });
    const error = await rejection(c.getTask({ id: 't-1' }));
    expect(error.kind).toBe('http');
    expect(error.location).toBe(`${agent.url}/elsewhere`);
    expect(agent.requests).toHaveLength(1);
  });

  it('a redirect is not a circuit-breaker failure', async () => {
    const agent = await loopback(moved(301, '/elsewhere'));
    const c = client(`${agent.url}/rpc`, 'JSONRPC', { ...engine, retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await rejection(c.getTask({ id: 't-1' }))).kind).toBe('http');
    expect(agent.requests).toHaveLength(3);
  });

  it('credentials and query secrets of a Location are not in the error', async () => {
    const agent = await loopback((req, res) => moved(303, `http://user:pw-2718281828@127.0.0.1:9/x?sig=q-1618033988&echo=${encodeURIComponent(req.headers.authorization ?? '')}`)(req, res));
    const c = client(`${agent.url}/rpc`, 'JSONRPC', { ...engine, retry: false });
    const error = await rejection(c.sendMessage(message));
    expect(error.location).toBe('http://127.0.0.1:9/x');
    expect(error.headers?.['location']).toBe('http://127.0.0.1:9/x');
    const text = `${error.message} ${JSON.stringify(error.toJSON())} ${error.stack ?? ''}`;
    for (const secret of ['pw-2718281828', 'q-1618033988', 'rpc-tok-31415926']) expect(text).not.toContain(secret);
  });
});

it("a caller's dispatcher composed with undici's redirect interceptor does not follow RPC redirects", async () => {
  const target = await loopback((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
  const agent = await loopback(moved(307, `${target.url}/rpc`));
  const dispatcher = new Agent().compose(interceptors.redirect({ maxRedirections: 3 }));
  closers.push(() => dispatcher.close());
  const c = client(`${agent.url}/rpc`, 'JSONRPC', { dispatcher, retry: false });
  const error = await rejection(c.sendMessage(message));
  expect(error.kind).toBe('http');
  expect(error.location).toBe(`${target.url}/rpc`);
  expect(target.requests).toHaveLength(0);
});
