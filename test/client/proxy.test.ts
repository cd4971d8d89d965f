/**
 * Proxies, against a small real HTTP proxy on loopback (test/helpers/http-proxy.ts): card fetches,
 * calls and streams go through it (a CONNECT tunnel to an https agent, absolute-form requests to an
 * http one), streams are delivered event by event through both, `'env'` honours the proxy variables
 * and NO_PROXY, credentials go out as Proxy-Authorization and never come back in an error or event,
 * a refusing proxy is a typed, fatal `connection`/`proxy` error that spares the agent's breaker, a
 * proxy dying mid-stream is a reset the stream resumes from, an unreachable one is a retried refusal,
 * and a proxy that never answers CONNECT ends at `connectMs` with its attempt torn down.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError, type ClientOptions } from '../../src/index.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { leaks } from '../errors/secret-leaks.js';
import { refusedPort } from '../helpers/fault-server.js';
import { gatedAgent, type GatedAgent } from '../helpers/gated-agent.js';
import { startHttpProxy, type HttpProxy } from '../helpers/http-proxy.js';
import { generateTestCerts, type TestCerts } from '../helpers/test-certs.js';

let certs: TestCerts;
beforeAll(() => {
  certs = generateTestCerts();
});
afterAll(() => certs.cleanup());

interface Agent {
  url: string;
  agent: GatedAgent;
  close(): Promise<void>;
}

let names = 0;
async function startAgent(kind: 'http' | 'https', release = true): Promise<Agent> {
  const agent = gatedAgent(`proxied-${kind}-${++names}`);
  if (release) agent.release();
  const server: Server = kind === 'https' ? createHttpsServer({ key: certs.serverKey, cert: certs.serverCert }, agent.listener) : createHttpServer(agent.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${kind}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent.base = `${url}/`;
  return {
    url,
    agent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
async function agentOf(kind: 'http' | 'https', release = true): Promise<Agent> {
  const a = await startAgent(kind, release);
  cleanups.push(a.close);
  return a;
}
async function proxyOf(behaviour: Parameters<typeof startHttpProxy>[0] = {}): Promise<HttpProxy> {
  const p = await startHttpProxy(behaviour);
  cleanups.push(p.close);
  return p;
}
async function clientOf(url: string, options: ClientOptions): Promise<A2AClient> {
  const client = await A2AClient.connect(url, options);
  cleanups.push(() => client.close());
  return client;
}

async function failure(run: () => Promise<unknown>): Promise<A2AClientError> {
  try {
    await run();
  } catch (error) {
    if (isA2AClientError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const hi = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] } };
const tlsFor = (kind: 'http' | 'https'): ClientOptions => (kind === 'https' ? { tls: { ca: certs.ca } } : {});

/** Streams a send; checks the first event arrives while the agent still holds the rest back. */
async function streamThroughGate(client: A2AClient, agent: GatedAgent): Promise<string[]> {
  const kinds: string[] = [];
  for await (const ev of client.sendStreamingMessage(hi)) {
    kinds.push(ev.kind);
    // Only after the first event reached us may the agent write the next ones.
    if (kinds.length === 1) agent.release();
  }
  return kinds;
}

describe.each(['http', 'https'] as const)('through a proxy URL to an %s agent', (kind) => {
  it('card, call and stream go through the proxy; the stream is not buffered', async () => {
    const agent = await agentOf(kind, false);
    const proxy = await proxyOf();
    const client = await clientOf(agent.url, { proxy: proxy.url, ...tlsFor(kind) });
    expect((await client.sendMessage(hi)).kind).toBe('message');
    expect(await streamThroughGate(client, agent.agent)).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
    if (kind === 'https') {
      // One tunnel, kept alive for every request; the proxy never saw a request in the clear.
      expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
      expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(agent.url).host]));
      expect(proxy.forwards).toEqual([]);
    } else {
      expect(proxy.tunnels).toEqual([]);
      expect(proxy.forwards).toEqual([`${agent.url}/.well-known/agent-card.json`, `${agent.url}/`, `${agent.url}/`]);
    }
    expect(agent.agent.calls).toEqual(['GET /.well-known/agent-card.json', 'SendMessage', 'SendStreamingMessage']);
  });

  it('sends the URL’s credentials as Proxy-Authorization', async () => {
    const agent = await agentOf(kind);
    const expected = `Basic ${Buffer.from('alice:pa ss/word').toString('base64')}`;
    const proxy = await proxyOf({ auth: expected });
    const client = await clientOf(agent.url, { proxy: `http://alice:pa%20ss%2Fword@127.0.0.1:${proxy.port}`, ...tlsFor(kind) });
    expect((await client.sendMessage(hi)).kind).toBe('message');
    expect(proxy.authorizations.length).toBeGreaterThanOrEqual(2);
    expect(new Set(proxy.authorizations)).toEqual(new Set([expected]));
  });

  it.each([407, 403])('a proxy refusing with %i: connection/proxy with the status, one request, never retried, breaker untouched', async (status) => {
    const agent = await agentOf(kind);
    const good = await clientOf(agent.url, tlsFor(kind));
    const proxy = await proxyOf(status === 407 ? { auth: 'Basic nope' } : { refuse: 403 });
    const secret = 's3cret-proxy-pass';
    const events: ResilienceEvent[] = [];
    const proxied = new A2AClient(good.card.raw, {
      proxy: `http://bob:${secret}@127.0.0.1:${proxy.port}`,
      retry: { maxAttempts: 5, baseDelayMs: 5 },
      circuitBreaker: { consecutiveFailures: 1 },
      onEvent: (e) => events.push(e),
      ...tlsFor(kind),
    });
    cleanups.push(() => proxied.close());
    for (const call of [() => proxied.getTask({ id: 'task-1' }), () => proxied.sendMessage(hi)]) {
      const seen = proxy.tunnels.length + proxy.forwards.length;
      const error = await failure(call);
      if (kind === 'http' && status === 403) {
        // Through a forward proxy a 403 cannot be told from the agent's own: it is an http error.
        expect(error.kind).toBe('http');
        expect(error.status).toBe(403);
      } else {
        expect(error.kind).toBe('connection');
        expect(error.reason).toBe('proxy');
        expect(error.phase).toBe('before-send');
        expect(error.message).toContain(`proxy http://127.0.0.1:${proxy.port}`);
      }
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(false);
      expect(proxy.tunnels.length + proxy.forwards.length - seen).toBe(1);
      expect(leaks(error, secret)).toEqual([]);
      expect(leaks(error, Buffer.from(`bob:${secret}`).toString('base64'))).toEqual([]);
    }
    expect(leaks(events, secret)).toEqual([]);
    expect(events.some((e) => e.type === 'breaker-open')).toBe(false);
    // The agent's breaker (shared by the process per origin) is still closed for a client without the proxy.
    expect((await good.sendMessage(hi)).kind).toBe('message');
  });

  it('a proxy dying mid-stream is a reset after send; the stream resumes through it', async () => {
    const agent = await agentOf(kind, false);
    const proxy = await proxyOf({ auth: `Basic ${Buffer.from('carol:mid-stream-secret').toString('base64')}` });
    const events: ResilienceEvent[] = [];
    const client = await clientOf(agent.url, { proxy: `http://carol:mid-stream-secret@127.0.0.1:${proxy.port}`, onEvent: (e) => events.push(e), ...tlsFor(kind) });
    const kinds: string[] = [];
    for await (const ev of client.sendStreamingMessage(hi)) {
      kinds.push(ev.kind);
      if (kinds.length === 1) proxy.dropAll();
    }
    const resubscribe = events.find((e) => e.type === 'resubscribe');
    // The drop was a connection failure (kind `connection`), resumed like any other.
    expect(resubscribe?.reason).toBe('connection');
    expect(leaks(events, 'mid-stream-secret')).toEqual([]);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('status-update');
    expect(kinds).toContain('artifact-update');
    expect(agent.agent.calls).toEqual(['GET /.well-known/agent-card.json', 'SendStreamingMessage', 'SubscribeToTask']);
  });
});

describe('proxy failures', () => {
  it('an unreachable proxy is a refused connection before send, retried', async () => {
    const agent = await agentOf('http');
    const port = await refusedPort();
    const error = await failure(() => A2AClient.connect(agent.url, { proxy: `http://u:hidden-pass-1@127.0.0.1:${port}`, retry: { maxAttempts: 3, baseDelayMs: 5 } }));
    expect(error.kind).toBe('connection');
    expect(error.reason).toBe('refused');
    expect(error.phase).toBe('before-send');
    expect(error.attempts).toHaveLength(3);
    expect(leaks(error, 'hidden-pass-1')).toEqual([]);
    expect(agent.agent.calls).toEqual([]);
  });

  it('a proxy that accepts TCP but never answers CONNECT: connect-timeout near connectMs, the attempt torn down', async () => {
    const agent = await agentOf('https');
    const direct = await clientOf(agent.url, tlsFor('https'));
    const proxy = await proxyOf({ silent: true });
    const client = new A2AClient(direct.card.raw, { proxy: proxy.url, retry: false, timeouts: { connectMs: 300 }, ...tlsFor('https') });
    cleanups.push(() => client.close());
    for (const call of [() => client.getTask({ id: 'task-1' }), () => client.sendMessage(hi)]) {
      const started = performance.now();
      const error = await failure(call);
      const ms = performance.now() - started;
      expect(error.kind).toBe('connect-timeout');
      expect(error.phase).toBe('before-send');
      expect(ms).toBeGreaterThanOrEqual(290);
      expect(ms).toBeLessThan(1_000);
      // The CONNECT nobody answered was ended at once, with the client still open (undici's own
      // wait for an answer would be minutes).
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(proxy.openTunnels).toBe(0);
    }
    expect(proxy.tunnels).toHaveLength(2);
    expect(agent.agent.calls).toEqual(['GET /.well-known/agent-card.json']);
  });

  it('a proxy URL that is not http(s) is unsupported, without its credentials in the message', async () => {
    const error = await failure(() => A2AClient.connect('http://127.0.0.1:1', { proxy: 'socks5://u:very-secret@127.0.0.1:1080' }));
    expect(error.kind).toBe('unsupported');
    expect(error.field).toBe('proxy');
    expect(leaks(error, 'very-secret')).toEqual([]);
  });
});

describe("proxy: 'env'", () => {
  const NAMES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'] as const;
  let saved: Record<string, string | undefined>;
  beforeAll(() => {
    saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  });
  afterEach(() => {
    for (const n of NAMES) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  });
  const setEnv = (values: Partial<Record<(typeof NAMES)[number], string>>): void => {
    for (const n of NAMES) delete process.env[n];
    Object.assign(process.env, values);
  };

  it('HTTPS_PROXY for an https agent, http_proxy for an http one; NO_PROXY goes direct', async () => {
    const [secure, plain, direct] = [await agentOf('https'), await agentOf('http'), await agentOf('http')];
    const proxy = await proxyOf();
    setEnv({ HTTPS_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: `localhost,${new URL(direct.url).host}` });
    const viaTunnel = await clientOf(secure.url, { proxy: 'env', ...tlsFor('https') });
    expect(await streamThroughGate(viaTunnel, secure.agent)).toHaveLength(4);
    const viaForward = await clientOf(plain.url, { proxy: 'env' });
    expect((await viaForward.sendMessage(hi)).kind).toBe('message');
    const bypass = await clientOf(direct.url, { proxy: 'env' });
    expect((await bypass.sendMessage(hi)).kind).toBe('message');
    expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(secure.url).host]));
    expect(proxy.forwards.every((u) => u.startsWith(plain.url))).toBe(true);
    expect(proxy.forwards.length).toBe(2);
    expect(direct.agent.calls).toEqual(['GET /.well-known/agent-card.json', 'SendMessage']);
  });

  it.each(['http', 'https'] as const)('a 407 from the env proxy (%s agent) names that proxy, never its credentials', async (kind) => {
    const agent = await agentOf(kind);
    const proxy = await proxyOf({ auth: 'Basic something-else' });
    const url = `http://dave:env-secret-pw@127.0.0.1:${proxy.port}`;
    setEnv(kind === 'https' ? { https_proxy: url } : { HTTP_PROXY: url });
    const error = await failure(() => A2AClient.connect(agent.url, { proxy: 'env', retry: { maxAttempts: 4, baseDelayMs: 5 }, ...tlsFor(kind) }));
    expect(error).toMatchObject({ kind: 'connection', reason: 'proxy', status: 407, phase: 'before-send', retryable: false });
    expect(error.message).toContain(`http://127.0.0.1:${proxy.port}`);
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('dave:env-secret-pw').toString('base64')}`]);
    expect(leaks(error, 'env-secret-pw')).toEqual([]);
  });

  it('without proxy variables goes direct', async () => {
    setEnv({});
    const agent = await agentOf('http');
    const client = await clientOf(agent.url, { proxy: 'env' });
    expect((await client.sendMessage(hi)).kind).toBe('message');
  });
});
