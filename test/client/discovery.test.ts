/**
 * Discovery is as resilient as a call, against real loopback servers on both engines:
 * `A2AClient.connect(url, options, call)` and `refreshCard(call)` end at one deadline (a silent
 * server, a headers function that never settles), stop on the caller's signal, retry refused
 * connections, 5xx and 429 (Retry-After honoured within the deadline), keep every attempt, name the
 * agent URL, and neither trip nor consult the agent's circuit breaker.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type A2AClientError, type ClientOptions, type ResilienceEvent } from '../../src/index.js';
import { refusedPort, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { uniqueName } from './harness.js';
import { rejection } from '../resilience/fixtures.js';

const CARD = '/.well-known/agent-card.json';
const ENGINES: ReadonlyArray<[string, ClientOptions]> = [
  ['undici', {}],
  ['fetch', { fetch: 'global' }],
];
const fast = { baseDelayMs: 5, maxDelayMs: 10, budget: false as const };

const servers: FaultServer[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<FaultServer> {
  const s = await startFaultServer();
  servers.push(s);
  return s;
}

const names = new Map<string, string>();
/** A card whose JSON-RPC endpoint is `<url>/rpc` (one name per server). */
function card(url: string): string {
  let name = names.get(url);
  if (name === undefined) {
    name = uniqueName('disc');
    names.set(url, name);
  }
  return JSON.stringify({ name, supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {} });
}

function answerCard(res: ServerResponse, url: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(card(url));
}

/** Serves `replies[i]` to the i-th card request (the last one repeats); counts requests. */
function scripted(s: FaultServer, replies: Array<(req: IncomingMessage, res: ServerResponse) => void>): { count: () => number } {
  let n = 0;
  s.route(CARD, (req, res) => {
    req.resume();
    const reply = replies[Math.min(n, replies.length - 1)];
    n += 1;
    reply?.(req, res);
  });
  return { count: () => n };
}

const status = (code: number, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse): void => {
  res.writeHead(code, { 'content-type': 'text/plain', ...headers });
  res.end(`status ${code}`);
};
const silent = (): void => undefined;

async function connected(url: string, options: ClientOptions, call = {}): Promise<A2AClient> {
  const client = await A2AClient.connect(url, options, call);
  clients.push(client);
  return client;
}

function expectNamesAgent(error: A2AClientError, url: string): void {
  expect(error.agent).toBe(url);
  expect(error.message).toContain(url);
}

describe.each(ENGINES)('A2AClient.connect is bounded and retried (%s)', (_engine, engine) => {
  it('a server that never answers ends at totalMs with deadline-exceeded (call.timeouts over options.timeouts)', async () => {
    const s = await server();
    scripted(s, [silent]);
    const started = performance.now();
    const error = await rejection(A2AClient.connect(s.url, { ...engine, timeouts: { totalMs: 60_000 } }, { timeouts: { totalMs: 300 } }));
    const elapsed = performance.now() - started;
    expect(error.kind).toBe('deadline-exceeded');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1_500);
    expectNamesAgent(error, s.url);
    // The card request the deadline cut is kept, with how far it got.
    expect(error.attempts.map((a) => [a.kind, a.phase])).toEqual([['deadline-exceeded', 'after-send']]);
  });

  it('a headers function that never settles ends at totalMs with deadline-exceeded; nothing is sent', async () => {
    const s = await server();
    const { count } = scripted(s, [(req, res) => answerCard(res, s.url)]);
    const started = performance.now();
    const never = (): Promise<Record<string, string>> => new Promise<Record<string, string>>(() => undefined);
    const error = await rejection(A2AClient.connect(s.url, { ...engine, headers: never, timeouts: { totalMs: 300 } }));
    expect(error.kind).toBe('deadline-exceeded');
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(count()).toBe(0);
    expectNamesAgent(error, s.url);
  });

  it('call.signal aborts discovery at once with kind aborted', async () => {
    const s = await server();
    scripted(s, [silent]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    const started = performance.now();
    const error = await rejection(A2AClient.connect(s.url, engine, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(1_000);
    expectNamesAgent(error, s.url);
  });

  it('5xx twice, then the card: connected, each retry reported with method getAgentCard', async () => {
    const s = await server();
    const { count } = scripted(s, [status(503), status(502), (_req, res) => answerCard(res, s.url)]);
    const events: ResilienceEvent[] = [];
    const client = await connected(s.url, { ...engine, retry: fast, onEvent: (e) => events.push(e) });
    expect(client.protocol.url).toBe(`${s.url}/rpc`);
    expect(count()).toBe(3);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && [e.method, e.agent, e.reason])).toEqual([
      ['getAgentCard', s.url, 'http:503:refused'],
      ['getAgentCard', s.url, 'http:502:idempotent'],
    ]);
  });

  it('a card that keeps failing with 500: kind card with the status, every attempt kept', async () => {
    const s = await server();
    const { count } = scripted(s, [status(500)]);
    const error = await rejection(A2AClient.connect(s.url, { ...engine, retry: { ...fast, maxAttempts: 3 } }));
    expect([error.kind, error.status, error.method]).toEqual(['card', 500, 'getAgentCard']);
    expect(error.attempts.map((a) => [a.kind, a.status])).toEqual([['http', 500], ['http', 500], ['http', 500]]);
    expect(count()).toBe(3);
    expectNamesAgent(error, s.url);
  });

  it('429 with Retry-After: 1 is waited for within the deadline, then connected', async () => {
    const s = await server();
    const { count } = scripted(s, [status(429, { 'retry-after': '1' }), (_req, res) => answerCard(res, s.url)]);
    const started = performance.now();
    await connected(s.url, { ...engine, retry: fast, timeouts: { totalMs: 5_000 } });
    const elapsed = performance.now() - started;
    expect(count()).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('a Retry-After beyond the deadline gives up at once with retryAfterMs set', async () => {
    const s = await server();
    const { count } = scripted(s, [status(503, { 'retry-after': '30' })]);
    const started = performance.now();
    const error = await rejection(A2AClient.connect(s.url, { ...engine, retry: fast }, { timeouts: { totalMs: 2_000 } }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect([error.kind, error.status, error.retryAfterMs, error.retryable]).toEqual(['card', 503, 30_000, true]);
    expect(count()).toBe(1);
  });

  it('a refused connection is retried: kind connection, every attempt before-send, the URL named', async () => {
    const url = `http://127.0.0.1:${await refusedPort()}`;
    const error = await rejection(A2AClient.connect(url, { ...engine, retry: { ...fast, maxAttempts: 3 } }));
    expect(error.kind).toBe('connection');
    expect(error.attempts.map((a) => [a.kind, a.phase])).toEqual(Array(3).fill(['connection', 'before-send']));
    expectNamesAgent(error, url);
  });

  it('a URL with user:password@ is refused before anything is sent, without quoting them', async () => {
    const s = await server();
    const cards = scripted(s, [status(500)]);
    const withSecrets = s.url.replace('http://', 'http://user:SECRET-pw@') + '/?token=SECRET-q';
    const error = await rejection(A2AClient.connect(withSecrets, { ...engine, retry: false }));
    expect([error.kind, error.field, error.phase]).toEqual(['unsupported', 'url', 'before-send']);
    expect(cards.count()).toBe(0);
    expect(inspect(error, { depth: Infinity }) + JSON.stringify(error)).not.toMatch(/SECRET/);
  });

  it('the query of the URL (an API key) never appears in the error, even when the server echoes it', async () => {
    const s = await server();
    s.route(CARD, (req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain', 'x-echo': req.url ?? '' });
      res.end(`no card for ${req.url ?? ''}`);
    });
    const error = await rejection(A2AClient.connect(`${s.url}/?api_key=SECRET-key-123`, { ...engine, retry: false }));
    expect(error.kind).toBe('card');
    expect(inspect(error, { depth: Infinity })).toContain('[REDACTED]');
    expect(inspect(error, { depth: Infinity }) + JSON.stringify(error)).not.toMatch(/SECRET/);
  });
});

describe.each(ENGINES)('refreshCard is bounded and retried like connect (%s)', (_engine, engine) => {
  it('a server that stops answering ends the refresh at the call deadline; an abort ends it at once', async () => {
    const s = await server();
    let mode: 'ok' | 'silent' | '503-once' = 'ok';
    let requests = 0;
    s.route(CARD, (req, res) => {
      req.resume();
      requests += 1;
      if (mode === 'silent') return;
      if (mode === '503-once') {
        mode = 'ok';
        status(503)(req, res);
        return;
      }
      answerCard(res, s.url, { 'cache-control': 'no-cache' });
    });
    const client = await connected(s.url, { ...engine, retry: fast });
    mode = 'silent';
    const started = performance.now();
    const late = await rejection(client.refreshCard({ timeouts: { totalMs: 300 } }));
    expect(late.kind).toBe('deadline-exceeded');
    expect(performance.now() - started).toBeLessThan(1_500);
    expectNamesAgent(late, s.url);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(client.refreshCard({ signal: controller.signal }))).kind).toBe('aborted');

    mode = '503-once';
    const before = requests;
    const fresh = await client.refreshCard();
    expect(fresh.name).toBe(client.name);
    expect(requests - before).toBe(2);
  });
});

describe('card fetches and the agent circuit breaker', () => {
  it('failing card fetches do not open the breaker, and an open breaker does not refuse a card fetch', async () => {
    const s = await server();
    let cardDown = true;
    s.route(CARD, (req, res) => {
      req.resume();
      if (cardDown) status(503)(req, res);
      else answerCard(res, s.url);
    });
    s.route('/rpc', (req, res) => {
      req.resume();
      status(503)(req, res);
    });
    const options: ClientOptions = { retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } };
    for (let i = 0; i < 3; i++) expect((await rejection(A2AClient.connect(s.url, options))).kind).toBe('card');
    cardDown = false;
    const client = await connected(s.url, options);
    // The breaker was not opened by the card failures: the first call reaches the agent.
    expect((await rejection(client.getTask({ id: 't' }))).kind).toBe('http');
    expect((await rejection(client.getTask({ id: 't' }))).kind).toBe('http');
    expect((await rejection(client.getTask({ id: 't' }))).kind).toBe('circuit-open');
    // Now open for calls, yet discovery still works.
    const again = await connected(s.url, options);
    expect(again.name).toBe(client.name);
  });
});
