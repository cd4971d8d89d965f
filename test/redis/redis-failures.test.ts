/**
 * Redis failure is not our failure, against a real redis-server that is killed, restarted and
 * paused mid-run: calls go on with local state — no error, no added latency — a `shared-state` event
 * reports the store degraded and then restored, and sharing resumes.
 */
import { expect, it } from 'vitest';
import type { SharedStateEvent } from '../../src/resilience/event-types.js';
import type { Resilience } from '../../src/resilience/pipeline.js';
import { describeWithRedis } from '../helpers/redis-server.js';
import { agentKey, errors, rejection } from '../resilience/fixtures.js';
import { read, sleep, useRedis, waitFor } from './setup.js';

/** Calls `p` every 2 ms until `stop()`; resolves with the failures and the slowest call. */
function keepCalling(p: Resilience): { stop: () => Promise<{ calls: number; failures: unknown[]; slowestMs: number }> } {
  let running = true;
  const failures: unknown[] = [];
  let calls = 0;
  let slowestMs = 0;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        await p.execute(read(), async () => 'ok');
      } catch (error) {
        failures.push(error);
      }
      calls++;
      slowestMs = Math.max(slowestMs, performance.now() - t0);
      await sleep(2);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { calls, failures, slowestMs };
    },
  };
}

describeWithRedis('Redis failures on a shared store', () => {
  const redis = useRedis();
  const breaker = { consecutiveFailures: 2, halfOpenAfterMs: 60_000 };

  it('Redis killed and restarted mid-run: no call fails or waits, degraded then restored, sharing resumes', async () => {
    const events: SharedStateEvent[] = [];
    const a = redis.store({ onEvent: (e) => events.push(e), timeoutMs: 1_500 });
    const b = redis.store({ timeoutMs: 1_500 });
    await redis.synced(a, b);
    const origin = agentKey();
    const clientEvents: string[] = [];
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: breaker, onEvent: (e) => clientEvents.push(`${e.type}:${e.agent}`) });
    const pb = redis.pipeline(b, origin, { retry: false, circuitBreaker: breaker });
    const calling = [keepCalling(pa), keepCalling(pb)];

    await sleep(200);
    await redis.server.kill();
    await waitFor(() => events.some((e) => e.status === 'degraded'), 3_000, 'a degraded event');
    expect(a.status).toBe('degraded');
    await sleep(300);
    await redis.server.restart();
    await waitFor(() => events.some((e) => e.status === 'restored'), 8_000, 'a restored event');
    await redis.synced(a, b);
    await sleep(200);

    for (const run of await Promise.all(calling.map((c) => c.stop()))) {
      expect(run.failures).toEqual([]);
      expect(run.calls).toBeGreaterThan(50);
      // Calls never waited for Redis (its timeout here is 1.5 s).
      expect(run.slowestMs).toBeLessThan(1_000);
    }
    expect(events.map((e) => [e.type, e.agent, e.status])).toEqual([
      ['shared-state', '*', 'degraded'],
      ['shared-state', '*', 'restored'],
    ]);
    expect(clientEvents).toEqual(['shared-state:agent', 'shared-state:agent']);

    // Sharing resumed: an opening reaches the other replica again.
    for (let i = 0; i < 2; i++) await rejection(pa.execute(read(), async () => Promise.reject(errors.http(503))));
    await waitFor(() => pb.isOpen(), 1_000, 'the opening to reach the other replica');
  });

  it('a breaker opened while Redis was down reaches the fleet once it is back', async () => {
    const a = redis.store({ timeoutMs: 1_500 });
    const b = redis.store({ timeoutMs: 1_500 });
    await redis.synced(a, b);
    const origin = agentKey();
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: breaker });
    const pb = redis.pipeline(b, origin, { retry: false, circuitBreaker: breaker });
    await pb.execute(read(), async () => 'ok');
    await redis.server.kill();
    await waitFor(() => a.status === 'degraded', 3_000, 'degraded');
    for (let i = 0; i < 2; i++) await rejection(pa.execute(read(), async () => Promise.reject(errors.http(503))));
    expect(pa.isOpen()).toBe(true);
    expect(pb.isOpen()).toBe(false);
    await redis.server.restart();
    await waitFor(() => pb.isOpen(), 8_000, 'the opening to reach the other replica after the restart');
  });

  it('a Redis that stops answering (SIGSTOP) degrades the store after timeoutMs; calls never wait for it', async () => {
    const events: SharedStateEvent[] = [];
    const s = redis.store({ onEvent: (e) => events.push(e), timeoutMs: 1_500 });
    await redis.synced(s);
    const p = redis.pipeline(s, agentKey(), { retry: false, circuitBreaker: breaker });
    const calling = keepCalling(p);
    await sleep(100);
    redis.server.pause();
    try {
      await waitFor(() => s.status === 'degraded', 3_000, 'degraded while Redis is stopped');
      await sleep(300);
    } finally {
      redis.server.resume();
    }
    await waitFor(() => s.status === 'synced', 5_000, 'synced once Redis answers again');
    const run = await calling.stop();
    expect(run.failures).toEqual([]);
    expect(run.slowestMs).toBeLessThan(1_000);
    expect(events.map((e) => e.status)).toEqual(['degraded', 'restored']);
    expect(events[0]?.reason).toMatch(/did not answer within 1500 ms/);
  });

  it('a store started while Redis is down works locally and starts sharing when Redis comes up', async () => {
    await redis.server.kill();
    const events: SharedStateEvent[] = [];
    const s = redis.store({ onEvent: (e) => events.push(e), timeoutMs: 200 });
    const p = redis.pipeline(s, agentKey(), { retry: false, circuitBreaker: breaker });
    expect(await p.execute(read(), async () => 'ok')).toBe('ok');
    await waitFor(() => s.status === 'degraded', 3_000, 'degraded');
    await redis.server.restart();
    await waitFor(() => s.status === 'synced', 8_000, 'synced after Redis came up');
    expect(events.map((e) => e.status)).toEqual(['degraded', 'restored']);
  });
});
