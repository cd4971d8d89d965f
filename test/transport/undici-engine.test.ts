import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchEngine } from '../../src/transport/fetch-engine.js';
import { UndiciEngine } from '../../src/transport/undici-engine.js';
import { startFaultServer, startSlowConnectListener } from '../helpers/fault-server.js';
import type { FaultServer } from '../helpers/fault-server.js';
import { activeTimers, failure, req, settle } from './harness.js';

const poolIdle = (engine: UndiciEngine) =>
  Object.values(engine.agent?.stats ?? {}).every((s) => s.pending === 0 && s.running === 0);

describe('undici engine: connect phase and pool', () => {
  let slow: Awaited<ReturnType<typeof startSlowConnectListener>>;
  let server: FaultServer;
  beforeAll(async () => {
    slow = await startSlowConnectListener();
    server = await startFaultServer();
  });
  afterAll(async () => {
    await slow.close();
    await server.close();
  });

  it('fires connect-timeout (before-send) while the connection cannot complete, then tears the attempt down', async () => {
    const engine = new UndiciEngine();
    const timers = activeTimers();
    const { error, ms } = await failure(() => engine.send(req(`${slow.url}/`, { timeouts: { connectMs: 200, readMs: 5_000, streamIdleMs: 5_000 } })));
    expect(error.kind).toBe('connect-timeout');
    expect(error.phase).toBe('before-send');
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(700);
    await settle(100);
    expect(slow.openSockets).toBe(0);
    expect(poolIdle(engine)).toBe(true);
    expect(activeTimers()).toBeLessThanOrEqual(timers);
    await engine.close();
  });

  it('holds 150 streams open to one origin at once: no per-origin connection cap makes the later ones wait (and time out connecting)', async () => {
    const engine = new UndiciEngine();
    const open = new Set<() => void>();
    const all = 150;
    server.route('/held', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'text/event-stream' });
      rs.write('data: {}\n\n');
      // Each stream stays open until all of them are: with a cap on connections the server would never see them all.
      open.add(() => rs.end());
      if (open.size === all) for (const end of open) end();
    });
    // Every response is kept open (its connection busy) until all have their headers.
    const results = await Promise.all(
      Array.from({ length: all }, () =>
        engine.send(req(`${server.url}/held`, { timeouts: { connectMs: 3_000, readMs: 10_000, streamIdleMs: 10_000 } })).then(
          (res) => res,
          (error: unknown) => (error as { kind?: string }).kind ?? 'error',
        ),
      ),
    );
    for (const r of results) if (typeof r !== 'string') await r.close();
    expect(results.filter((r) => typeof r === 'string')).toEqual([]);
    expect(open.size).toBe(all);
    await engine.close();
  }, 20_000);

  it('once connected, a silent server gives read-timeout, not connect-timeout', async () => {
    const engine = new UndiciEngine();
    const { error } = await failure(() => engine.send(req(`${server.url}/never`, { timeouts: { connectMs: 100, readMs: 250, streamIdleMs: 5_000 } })));
    expect(error.kind).toBe('read-timeout');
    expect(error.phase).toBe('after-send');
    await server.waitForNoSockets();
    expect(poolIdle(engine)).toBe(true);
    await engine.close();
  });

  it('reuses a kept-alive connection and returns the pool to idle', async () => {
    // A server of its own: a late connection left over from an earlier test cannot be counted.
    const own = await startFaultServer();
    const engine = new UndiciEngine();
    for (let i = 0; i < 5; i++) expect(await (await engine.send(req(`${own.url}/ok`))).text()).toBe('{"ok":true}');
    // undici may open a second connection for a request dispatched before it has taken back the
    // first (a body read to its end resolves before the pool sees the connection free): 5 calls, ≤ 2.
    expect(own.acceptedSockets).toBeLessThanOrEqual(2);
    expect(poolIdle(engine)).toBe(true);
    await engine.close();
    await own.waitForNoSockets();
    await own.close();
  });

  it('uses a caller-supplied dispatcher and does not close it', async () => {
    const agent = new Agent();
    const engine = new UndiciEngine({ dispatcher: agent });
    expect(engine.agent).toBeUndefined();
    await (await engine.send(req(`${server.url}/ok`))).text();
    await engine.close();
    expect(agent.closed).toBe(false);
    expect(await (await engine.send(req(`${server.url}/ok`))).text()).toBe('{"ok":true}');
    await agent.close();
  });
});

describe('undici engine: a caller-supplied dispatcher with interceptors', () => {
  it('runs requests through the dispatcher’s interceptors, timers and body reading unchanged', async () => {
    const server = await startFaultServer();
    server.route('/whoami', (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tag: req.headers['x-tag'] ?? null }));
    });
    const agent = new Agent();
    const tagged = agent.compose((dispatch) => (opts, handler) => dispatch({ ...opts, headers: { ...(opts.headers as Record<string, string>), 'x-tag': 'composed' } }, handler));
    const engine = new UndiciEngine({ dispatcher: tagged });
    try {
      expect(await (await engine.send(req(`${server.url}/whoami`))).text()).toBe('{"tag":"composed"}');
      const { error } = await failure(() => engine.send(req(`${server.url}/never`, { timeouts: { connectMs: 1_000, readMs: 150, streamIdleMs: 1_000 } })));
      expect(error).toMatchObject({ kind: 'read-timeout', phase: 'after-send' });
    } finally {
      await engine.close();
      await agent.close();
      await server.close();
    }
  });
});

describe('fetch engine: connect phase (documented choice)', () => {
  it('reports a connection that cannot complete as read-timeout after max(connectMs, readMs)', async () => {
    const slow = await startSlowConnectListener();
    try {
      const engine = new FetchEngine('global');
      const { error, ms } = await failure(() => engine.send(req(`${slow.url}/`, { timeouts: { connectMs: 150, readMs: 250, streamIdleMs: 5_000 } })));
      expect(error.kind).toBe('read-timeout');
      expect(ms).toBeGreaterThanOrEqual(240);
      expect(ms).toBeLessThan(800);
    } finally {
      await slow.close();
    }
  });
});
