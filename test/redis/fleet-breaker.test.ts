/**
 * One breaker per agent across processes, against a real redis-server: two stores stand for two
 * replicas. An opening anywhere reaches everyone within a second; failures are counted across the
 * fleet; after halfOpenAfterMs exactly one replica probes while the others keep failing fast, and the
 * probe's outcome closes or reopens every breaker.
 */
import { expect, it } from 'vitest';
import { describeWithRedis } from '../helpers/redis-server.js';
import { agentKey, errors, rejection } from '../resilience/fixtures.js';
import { read, sleep, useRedis, waitFor } from './setup.js';

const fail503 = async (): Promise<never> => {
  throw errors.http(503);
};
const ok = async (): Promise<string> => 'ok';

describeWithRedis('fleet-wide circuit breaker on Redis', () => {
  const redis = useRedis();

  it('an opening in one replica makes the others fail fast within 1 s, without calling the agent', async () => {
    const [a, b] = [redis.store(), redis.store()];
    await redis.synced(a, b);
    const origin = agentKey();
    const breaker = { consecutiveFailures: 3, halfOpenAfterMs: 60_000 };
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: breaker });
    const pb = redis.pipeline(b, origin, { retry: false, circuitBreaker: breaker });
    await pb.execute(read(), ok);
    for (let i = 0; i < 3; i++) expect((await rejection(pa.execute(read(), fail503))).kind).toBe('http');
    expect(pa.breakerState()).toBe('open');
    const tookMs = await waitFor(() => pb.isOpen(), 1_000, 'the second replica to open');
    expect(tookMs).toBeLessThan(1_000);
    let called = 0;
    const refused = await rejection(
      pb.execute(read(), async () => {
        called++;
        return 'ok';
      }),
    );
    expect(refused.kind).toBe('circuit-open');
    expect(refused.retryAfterMs).toBeGreaterThan(50_000);
    expect(called).toBe(0);

    // A replica that meets the agent only now learns of the open breaker on its first sync.
    const c = redis.store();
    const pc = redis.pipeline(c, origin, { retry: false, circuitBreaker: breaker });
    expect(await waitFor(() => pc.isOpen(), 1_000, 'a late replica to open')).toBeLessThan(1_000);
  });

  it('counts consecutive health failures across the fleet', async () => {
    const [a, b] = [redis.store(), redis.store()];
    await redis.synced(a, b);
    const origin = agentKey();
    const breaker = { consecutiveFailures: 4, halfOpenAfterMs: 60_000 };
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: breaker });
    const pb = redis.pipeline(b, origin, { retry: false, circuitBreaker: breaker });
    // 2 + 2: neither replica alone reaches 4, the fleet does.
    for (let i = 0; i < 2; i++) await rejection(pa.execute(read(), fail503));
    await sleep(50);
    for (let i = 0; i < 2; i++) await rejection(pb.execute(read(), fail503));
    await waitFor(() => pa.isOpen() && pb.isOpen(), 1_000, 'both replicas to open');

    // A success anywhere restarts the count, as it does for one process.
    const origin2 = agentKey();
    const qa = redis.pipeline(a, origin2, { retry: false, circuitBreaker: breaker });
    const qb = redis.pipeline(b, origin2, { retry: false, circuitBreaker: breaker });
    for (let i = 0; i < 3; i++) await rejection(qa.execute(read(), fail503));
    await sleep(50);
    await qb.execute(read(), ok);
    await sleep(50);
    for (let i = 0; i < 3; i++) await rejection(qb.execute(read(), fail503));
    await sleep(100);
    expect([qa.breakerState(), qb.breakerState()]).toEqual(['closed', 'closed']);
  });

  it('half-opens with one probe for the whole fleet; a failed probe reopens everyone, a good one closes everyone', async () => {
    const [a, b] = [redis.store(), redis.store()];
    await redis.synced(a, b);
    const origin = agentKey();
    const breaker = { consecutiveFailures: 2, halfOpenAfterMs: 400 };
    const pa = redis.pipeline(a, origin, { retry: false, circuitBreaker: breaker });
    const pb = redis.pipeline(b, origin, { retry: false, circuitBreaker: breaker });
    await pb.execute(read(), ok);
    for (let i = 0; i < 2; i++) await rejection(pa.execute(read(), fail503));
    await waitFor(() => pb.isOpen(), 1_000, 'the second replica to open');

    /** Both replicas call every 5 ms for `ms`; resolves with how many calls reached the agent. */
    const race = async (ms: number, attempt: () => Promise<string>): Promise<number> => {
      let reached = 0;
      const counted = async (): Promise<string> => {
        reached++;
        return attempt();
      };
      const calls: Promise<unknown>[] = [];
      const end = performance.now() + ms;
      while (performance.now() < end) {
        calls.push(pa.execute(read(), counted).catch((e: unknown) => e), pb.execute(read(), counted).catch((e: unknown) => e));
        await sleep(5);
      }
      await Promise.all(calls);
      return reached;
    };

    await sleep(450);
    // The probe hangs 150 ms then fails: the breakers reopen, the next half-open is 400 ms later.
    const failingProbe = async (): Promise<string> => {
      await sleep(150);
      throw errors.http(503);
    };
    expect(await race(450, failingProbe)).toBe(1);
    expect([pa.breakerState(), pb.breakerState()]).toEqual(['open', 'open']);
    const reopenedAt = pa.breaker?.openedAt ?? 0;
    await waitFor(() => pb.breaker?.openedAt === reopenedAt || pa.breaker?.openedAt !== reopenedAt, 1_000, 'the reopening to reach both');

    await sleep(Math.max(0, reopenedAt + 420 - Date.now()));
    // A good probe (100 ms): no other call reaches the agent before it ends, then both breakers close.
    let probeEnded = false;
    let beforeEnd = 0;
    const goodProbe = async (): Promise<string> => {
      if (probeEnded) return 'ok';
      beforeEnd++;
      await sleep(100);
      probeEnded = true;
      return 'ok';
    };
    await race(300, goodProbe);
    expect(beforeEnd).toBe(1);
    await waitFor(() => pa.breakerState() === 'closed' && pb.breakerState() === 'closed', 1_000, 'both breakers to close');
  });

  it('a failing agent sees at most consecutiveFailures + the requests in flight, however long each replica takes to report its first failure', async () => {
    // 8 replicas (stores) with one call at a time each. The first failure of each replica blocks its
    // process for 40 ms before the breaker hears of it, as a cold process building its error decoders
    // on first use does: the replicas report late and unevenly, and every stall delays the others'
    // Redis replies past their 10 ms retry backoff. The bound must not depend on that.
    const REPLICAS = 8;
    const stores = Array.from({ length: REPLICAS }, () => redis.store());
    await redis.synced(...stores);
    const origin = agentKey();
    const breaker = { consecutiveFailures: 5, halfOpenAfterMs: 60_000 };
    const retry = { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 20, budget: false as const };
    const pipelines = stores.map((store) => redis.pipeline(store, origin, { retry, circuitBreaker: breaker }));
    let agentRequests = 0;
    const replica = async (p: (typeof pipelines)[number]): Promise<void> => {
      let cold = true;
      const attempt = async (): Promise<never> => {
        agentRequests++;
        await sleep(1);
        if (cold) {
          cold = false;
          const until = performance.now() + 40;
          while (performance.now() < until);
        }
        throw errors.http(503);
      };
      const t0 = performance.now();
      while (!p.isOpen() && performance.now() - t0 < 3_000) {
        await rejection(p.execute(read(), attempt));
        await sleep(10);
      }
    };
    await Promise.all(pipelines.map((p) => replica(p)));
    expect(pipelines.every((p) => p.isOpen())).toBe(true);
    process.stdout.write(`fleet breaker, late first reports: the agent saw ${agentRequests} requests before all ${REPLICAS} replicas failed fast\n`);
    expect(agentRequests).toBeLessThanOrEqual(breaker.consecutiveFailures + REPLICAS);
  });
});
