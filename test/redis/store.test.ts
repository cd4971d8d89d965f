/**
 * The store's contract around the edges, against a real redis-server: foreign or corrupt data under
 * the prefix is ignored and overwritten; every key it writes expires; a caller's client is used and
 * left open; and the `sharedState` option of the real A2AClient.
 */
import { createClient } from 'redis';
import { expect, it } from 'vitest';
import { httpError, mockAgent } from '../../mocks/index.js';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import { redisStateStore } from '../../src/redis/index.js';
import { KeyLayout } from '../../src/redis/keys.js';
import { describeWithRedis } from '../helpers/redis-server.js';
import { agentKey, errors, rejection } from '../resilience/fixtures.js';
import { read, sleep, useRedis, waitFor } from './setup.js';

const fail503 = async (): Promise<never> => {
  throw errors.http(503);
};
const retry = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, budget: { ratio: 0.1, minPerSecond: 1, windowMs: 10_000 } };

describeWithRedis('the Redis state store', () => {
  const redis = useRedis();

  it('ignores and overwrites foreign or corrupt data under its prefix, and never crashes on it', async () => {
    const origin = agentKey();
    const keys = new KeyLayout(redis.prefix);
    const r = redis.inspector;
    const bucket = Math.floor(Date.now() / 1000);
    await r.set(keys.breaker(origin), 'not json {');
    await r.hSet(keys.fails(origin), 'x', '1');
    await r.set(keys.probe(origin), 'someone else, forever');
    await r.set(keys.replicas, 'not a sorted set');
    for (let b = bucket - 10; b <= bucket + 3; b++) await r.set(keys.budget(origin, 10_000, b, 'q'), 'lots');
    await r.lPush(keys.budget(origin, 10_000, bucket + 1, 'r'), 'a list');

    const [a, b] = [redis.store(), redis.store()];
    await redis.synced(a, b);
    for (const junk of ['garbage', '{"v":2}', JSON.stringify({ v: 1, state: 'open', openedAt: -1, by: 'x', origin }), `{"origin":"${'x'.repeat(10_000)}"}`]) {
      await r.publish(keys.channel, junk);
    }
    const breaker = { consecutiveFailures: 2, halfOpenAfterMs: 300 };
    const pa = redis.pipeline(a, origin, { retry, circuitBreaker: breaker });
    const pb = redis.pipeline(b, origin, { retry, circuitBreaker: breaker });
    await pb.execute(read(), async () => 'ok');
    await sleep(100);
    expect([pa.breakerState(), pb.breakerState()]).toEqual(['closed', 'closed']);
    await rejection(pa.execute(read(), fail503));
    await waitFor(() => pb.isOpen() && pa.isOpen(), 1_000, 'the fleet to open despite the junk');

    // The foreign lease (no expiry) is taken over: one probe closes the fleet's breaker.
    await sleep(320);
    let probes = 0;
    for (let i = 0; i < 40 && (pa.breakerState() !== 'closed' || pb.breakerState() !== 'closed'); i++) {
      await Promise.all([pa, pb].map((p) => p.execute(read(), async () => (probes++, 'ok')).catch((e: unknown) => e)));
      await sleep(10);
    }
    expect([pa.breakerState(), pb.breakerState()]).toEqual(['closed', 'closed']);
    expect(probes).toBeGreaterThanOrEqual(1);

    expect(JSON.parse((await r.get(keys.breaker(origin))) ?? '')).toMatchObject({ v: 1, state: 'closed' });
    expect(await r.type(keys.fails(origin))).toBe('string');
    expect(await r.type(keys.replicas)).toBe('zset');
    expect(await r.get(keys.probe(origin))).not.toBe('someone else, forever');
    expect(await r.get(keys.budget(origin, 10_000, bucket - 2, 'q'))).toMatch(/^\d+$/);
    expect([a.status, b.status]).toEqual(['synced', 'synced']);
  });

  it('an agent called rarely gets its half-open probe: the lease waits for the next call, however late', async () => {
    const [a] = [redis.store()];
    await redis.synced(a);
    const origin = agentKey();
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 300 } });
    await rejection(pa.execute(read(), fail503));
    expect(pa.isOpen()).toBe(true);
    // The agent is healthy again; the caller calls every 1.2 s — longer than the half-open (300 ms) and
    // than the life of a lease nobody renews (1 s at the least).
    const outcomes: string[] = [];
    for (let i = 0; i < 4 && pa.breakerState() !== 'closed'; i++) {
      await sleep(1_200);
      outcomes.push(await pa.execute(read(), async () => 'ok').then(String, (e: unknown) => (isA2AClientError(e) ? e.kind : 'error')));
    }
    // The first call after the half-open asks for the lease (refused); the next one is the probe.
    expect(outcomes).toEqual(['circuit-open', 'ok']);
    expect(pa.breakerState()).toBe('closed');
  });

  it('a breaker record dated far in the future (foreign) opens nothing and is overwritten', async () => {
    const [a] = [redis.store()];
    await redis.synced(a);
    const origin = agentKey();
    const keys = new KeyLayout(redis.prefix);
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: { consecutiveFailures: 3, halfOpenAfterMs: 300 } });
    await pa.execute(read(), async () => 'ok');
    const forged = { v: 1, state: 'open', openedAt: Date.now() + 365 * 24 * 3600_000, by: 'forger' };
    await redis.inspector.set(keys.breaker(origin), JSON.stringify(forged));
    await redis.inspector.publish(keys.channel, JSON.stringify({ ...forged, origin }));
    await sleep(700);
    expect(pa.breakerState()).toBe('closed');
    await expect(pa.execute(read(), async () => 'ok')).resolves.toBe('ok');
    let by: string | undefined = 'forger';
    for (let i = 0; i < 40 && by === 'forger'; i++) {
      await sleep(50);
      by = (JSON.parse((await redis.inspector.get(keys.breaker(origin))) ?? '{}') as { by?: string }).by;
    }
    expect(by).not.toBe('forger');
  });

  it('sets an expiry on every key it writes', async () => {
    const [a, b] = [redis.store(), redis.store()];
    await redis.synced(a, b);
    const origin = agentKey();
    const breaker = { consecutiveFailures: 2, halfOpenAfterMs: 200 };
    const pa = redis.pipeline(a, origin, { retry, circuitBreaker: breaker });
    const pb = redis.pipeline(b, origin, { retry, circuitBreaker: breaker });
    for (let i = 0; i < 3; i++) await rejection(pa.execute(read(), fail503));
    await waitFor(() => pb.isOpen(), 1_000, 'open');
    await sleep(220);
    // Calls until one of them is the probe (it hangs 400 ms): its lease is in Redis while we look.
    const calls: Promise<unknown>[] = [];
    await waitFor(() => {
      for (const p of [pa, pb]) calls.push(p.execute(read(), () => sleep(400).then(() => 'ok')).catch((e: unknown) => e));
      return pa.breakerState() === 'half-open' || pb.breakerState() === 'half-open';
    }, 2_000, 'a probe to start');
    // Every kind of key is there now: the probe's lease too.
    const found = await redis.inspector.keys(`${redis.prefix}*`);
    const kinds = new Set(found.map((k) => k.slice(redis.prefix.length).split(':')[0]));
    // `probe-want` is there too when both asked for the lease at once.
    kinds.delete('probe-want');
    expect([...kinds].sort()).toEqual(['breaker', 'budget', 'fails', 'probe', 'replicas']);
    for (const key of found) {
      const ttl = await redis.inspector.pTTL(key);
      expect(ttl, key).toBeGreaterThan(0);
    }
    await Promise.all(calls);
  });

  it("uses a caller's client without closing it; pub/sub runs on a duplicate the store owns", async () => {
    const mine = createClient({ url: redis.server.url });
    const errorsSeen: unknown[] = [];
    mine.on('error', (error: unknown) => errorsSeen.push(error));
    await mine.connect();
    try {
      const a = redis.store({ url: undefined, client: mine });
      const b = redis.store();
      await redis.synced(a, b);
      const origin = agentKey();
      const breaker = { consecutiveFailures: 2, halfOpenAfterMs: 60_000 };
      const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: breaker });
      const pb = redis.pipeline(b, origin, { retry: false, circuitBreaker: breaker });
      await pa.execute(read(), async () => 'ok');
      for (let i = 0; i < 2; i++) await rejection(pb.execute(read(), fail503));
      await waitFor(() => pa.isOpen(), 1_000, 'the opening to reach the store on the caller client');
      await a.close();
      expect(a.status).toBe('closed');
      expect(mine.isReady).toBe(true);
      expect(await mine.ping()).toBe('PONG');
      expect(errorsSeen).toEqual([]);
    } finally {
      mine.destroy();
    }
  });

  it('rejects options that cannot work with a TypeError', () => {
    expect(() => redisStateStore({})).toThrow(TypeError);
    expect(() => redisStateStore({ url: 'redis://127.0.0.1:1', client: createClient() })).toThrow(/exactly one of `url` and `client`/);
    expect(() => redisStateStore({ url: 'redis://127.0.0.1:1', syncIntervalMs: 0 })).toThrow(/syncIntervalMs/);
    expect(() => redisStateStore({ url: 'http://127.0.0.1:6379' })).toThrow(TypeError);
  });

  it('A2AClient: sharedState shares the breaker between clients of different stores (real HTTP agent)', async () => {
    const agent = mockAgent({ name: 'fleet-agent', version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', httpError(503));
    const server = await agent.listen();
    const [a, b] = [redis.store(), redis.store()];
    await redis.synced(a, b);
    const options = { retry: false as const, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } };
    const ca = await A2AClient.connect(server.url, { ...options, sharedState: a });
    const cb = await A2AClient.connect(server.url, { ...options, sharedState: b });
    try {
      const msg = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] } };
      for (let i = 0; i < 2; i++) await ca.sendMessage(msg).catch((e: unknown) => e);
      expect(agent.calls.length).toBe(2);
      const deadline = performance.now() + 1_000;
      let refused: unknown;
      while (performance.now() < deadline) {
        refused = await cb.sendMessage(msg).catch((e: unknown) => e);
        if (isA2AClientError(refused) && refused.kind === 'circuit-open') break;
        await sleep(20);
      }
      expect(isA2AClientError(refused) && refused.kind).toBe('circuit-open');
      // The other client's first call was refused already (the opening arrives by pub/sub at once).
      expect(agent.calls.length).toBeLessThanOrEqual(3);
    } finally {
      await Promise.all([ca.close(), cb.close()]);
      await server.close();
    }
  });

  it('A2AClient: a sharedState not made by redisStateStore is refused as unsupported', async () => {
    const fake = { status: 'synced' as const, close: async () => undefined };
    const error = await rejection(A2AClient.connect('http://127.0.0.1:9', { sharedState: fake }));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toMatch(/redisStateStore/);
  });
});
