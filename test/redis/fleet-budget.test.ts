/**
 * One retry budget per agent across processes, against a real redis-server: retries of the whole
 * fleet stay within `ratio` × the fleet's requests plus ONE floor, where separate processes would each
 * spend a floor of their own.
 */
import { expect, it } from 'vitest';
import { MemoryAgentStateStore } from '../../src/resilience/agent-state-store.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { createResilience, type Resilience } from '../../src/resilience/pipeline.js';
import { describeWithRedis } from '../helpers/redis-server.js';
import { agentKey, errors } from '../resilience/fixtures.js';
import { read, sleep, useRedis } from './setup.js';

const budget = { ratio: 0.1, minPerSecond: 2, windowMs: 10_000 };
const retry = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, budget };
const fail503 = async (): Promise<never> => {
  throw errors.http(503);
};

/** `calls` failing reads on each pipeline, interleaved 5 ms apart; resolves with the retries taken. */
async function storm(pipelines: readonly Resilience[], retries: () => number, calls: number): Promise<number> {
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < calls; i++) {
    for (const p of pipelines) pending.push(p.execute(read(), fail503).catch((e: unknown) => e));
    await sleep(5);
  }
  await Promise.all(pending);
  return retries();
}

describeWithRedis('fleet-wide retry budget on Redis', () => {
  const redis = useRedis();

  it('keeps the fleet within ratio x requests + one floor (separate processes would each take a floor)', async () => {
    const floor = budget.minPerSecond * (budget.windowMs / 1000);
    const calls = 60;
    const requests = 3 * calls;
    const fleetAllowance = budget.ratio * requests + floor;

    // Three replicas sharing a store.
    const stores = [redis.store(), redis.store(), redis.store()];
    await redis.synced(...stores);
    await sleep(150); // every replica has announced itself: each knows there are three
    let shared = 0;
    const count = (e: ResilienceEvent): void => {
      if (e.type === 'retry') shared++;
    };
    const origin = agentKey();
    const sharedRetries = await storm(
      stores.map((s) => redis.pipeline(s, origin, { retry, circuitBreaker: false, onEvent: count })),
      () => shared,
      calls,
    );

    // The same three replicas, each on its own.
    let alone = 0;
    const lone = agentKey();
    const own = [0, 1, 2].map(() =>
      createResilience(lone, 'agent', {
        retry,
        circuitBreaker: false,
        store: new MemoryAgentStateStore(),
        onEvent: (e) => {
          if (e.type === 'retry') alone++;
        },
      }),
    );
    const aloneRetries = await storm(own, () => alone, calls);

    expect(sharedRetries).toBeLessThanOrEqual(Math.ceil(fleetAllowance) + 2);
    expect(sharedRetries).toBeGreaterThanOrEqual(floor / 2);
    expect(aloneRetries).toBeGreaterThan(fleetAllowance + floor / 2);
  });

  it('falls back to each process\'s own budget while Redis is away', async () => {
    const s = redis.store({ timeoutMs: 300 });
    await redis.synced(s);
    await redis.server.kill();
    let retries = 0;
    const p = redis.pipeline(s, agentKey(), {
      retry,
      circuitBreaker: false,
      onEvent: (e) => {
        if (e.type === 'retry') retries++;
      },
    });
    await storm([p], () => retries, 30);
    expect(s.status).toBe('degraded');
    // Local: 0.1 x 30 requests + the whole floor of 20.
    expect(retries).toBeGreaterThanOrEqual(20);
    await redis.server.restart();
  });
});
