import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { RetryBudget } from '../../src/resilience/budget.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { createResilience } from '../../src/resilience/pipeline.js';
import { agentKey, errors } from './fixtures.js';

async function storm(budget: boolean): Promise<{ attempts: number; kinds: Map<string, number>; events: ResilienceEvent[] }> {
  const events: ResilienceEvent[] = [];
  const r = createResilience(agentKey(), 'agent-c', {
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5, ...(budget ? {} : { budget: false }) },
    circuitBreaker: false,
    onEvent: (e) => events.push(e),
  });
  let attempts = 0;
  const kinds = new Map<string, number>();
  await Promise.all(
    Array.from({ length: 100 }, async () => {
      try {
        await r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 5000 }, async () => {
          attempts++;
          throw errors.http(503);
        });
      } catch (error) {
        const kind = isA2AClientError(error) ? error.kind : 'other';
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }),
  );
  return { attempts, kinds, events };
}

describe('retry budget', () => {
  it('holds a retry storm: 100 concurrent callers against an always-failing agent', async () => {
    const without = await storm(false);
    const withBudget = await storm(true);
    console.log(`retry storm, 100 callers × maxAttempts 3: ${without.attempts} attempts without budget, ${withBudget.attempts} with the default budget`);
    expect(without.attempts).toBe(300);
    // 10 % of 100 requests + 1/s × 10 s floor = 20 retries
    expect(withBudget.attempts).toBeLessThanOrEqual(100 + 20);
    expect(withBudget.attempts).toBeGreaterThanOrEqual(100 + 10);
    expect(withBudget.kinds.get('budget-exhausted')).toBeGreaterThan(0);
    expect(withBudget.events.some((e) => e.type === 'budget-exhausted')).toBe(true);
  });

  it('budget-exhausted keeps the underlying error as cause and in attempts', async () => {
    const r = createResilience(agentKey(), 'agent-c', {
      retry: { maxAttempts: 3, baseDelayMs: 1, budget: { ratio: 0, minPerSecond: 0, windowMs: 1000 } },
      circuitBreaker: false,
    });
    const underlying = errors.http(503);
    try {
      await r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 1000 }, async () => Promise.reject(underlying));
      expect.unreachable();
    } catch (error) {
      expect(isA2AClientError(error) && error.kind).toBe('budget-exhausted');
      expect(isA2AClientError(error) && error.cause).toBe(underlying);
      expect(isA2AClientError(error) && error.attempts).toEqual([underlying]);
      expect(isA2AClientError(error) && error.retryable).toBe(true);
    }
  });

  it('counts only the window: old requests and retries expire', () => {
    const b = new RetryBudget();
    const opts = { ratio: 0.5, minPerSecond: 0, windowMs: 1000 };
    for (let i = 0; i < 4; i++) b.recordRequest(1000, 0);
    expect(b.tryRetry(opts, 10)).toBe(true);
    expect(b.tryRetry(opts, 10)).toBe(true);
    expect(b.tryRetry(opts, 10)).toBe(false);
    expect(b.tryRetry(opts, 2000)).toBe(false);
    b.recordRequest(1000, 2000);
    b.recordRequest(1000, 2000);
    expect(b.tryRetry(opts, 2001)).toBe(true);
  });

  it('slides: only the requests of the last window count (to one bucket, 5 % of the window)', () => {
    const opts = { ratio: 1, minPerSecond: 0, windowMs: 1000 };
    const granted = (now: number): number => {
      const b = new RetryBudget();
      for (let i = 0; i < 10; i++) b.recordRequest(1000, 100);
      for (let i = 0; i < 3; i++) b.recordRequest(1000, 700);
      let n = 0;
      while (b.tryRetry(opts, now)) n++;
      return n;
    };
    expect(granted(1050)).toBe(13);
    expect(granted(1200)).toBe(3);
    // 700 lies in the 50 ms bucket that holds the window's start (720): still counted…
    expect(granted(1720)).toBe(3);
    // …and out once the window's start has moved past that bucket.
    expect(granted(1760)).toBe(0);
  });

  it('floor: minPerSecond × window seconds, with no requests at all', () => {
    const b = new RetryBudget();
    const opts = { ratio: 0.1, minPerSecond: 2, windowMs: 5000 };
    expect(Array.from({ length: 12 }, (_, i) => b.tryRetry(opts, i)).filter(Boolean)).toHaveLength(10);
    // The retries taken at 0–11 ms leave the window after 5 s; the floor is available again.
    expect(Array.from({ length: 12 }, (_, i) => b.tryRetry(opts, 5300 + i)).filter(Boolean)).toHaveLength(10);
  });

  it('1M requests in a 60 s window: the budget is ratio × 1M, and resets once the window has passed', () => {
    const b = new RetryBudget();
    const opts = { ratio: 0.01, minPerSecond: 1, windowMs: 60_000 };
    // 1M requests spread over one minute (≈ 16.7k/s), as a long-running process would record them.
    for (let i = 0; i < 1_000_000; i++) b.recordRequest(60_000, 1_000 + i * 0.06);
    const now = 1_000 + 60_000;
    let granted = 0;
    while (b.tryRetry(opts, now)) granted++;
    // 1 % of the requests still in the window (all but the first bucket's share) + 60 s × 1/s.
    expect(granted).toBeGreaterThanOrEqual(0.01 * 950_000 + 60);
    expect(granted).toBeLessThanOrEqual(0.01 * 1_000_000 + 60);
    // Two windows later every request and retry has expired: only the floor is left.
    let floor = 0;
    while (b.tryRetry(opts, now + 120_000)) floor++;
    expect(floor).toBe(60);
  });

  it('keeps counting after a pause far longer than the window', () => {
    const b = new RetryBudget();
    const opts = { ratio: 1, minPerSecond: 0, windowMs: 1000 };
    b.recordRequest(1000, 0);
    b.recordRequest(1000, 1e9);
    expect(b.tryRetry(opts, 1e9)).toBe(true);
    expect(b.tryRetry(opts, 1e9)).toBe(false);
  });

  it('a later, longer window is honoured: the ring grows and keeps what it had', () => {
    const b = new RetryBudget();
    b.recordRequest(1000, 0);
    for (let i = 0; i < 4; i++) b.recordRequest(1000, 500);
    const long = { ratio: 1, minPerSecond: 0, windowMs: 10_000 };
    // A 10 s window at 3000 still holds the 5 requests recorded under a 1 s window, plus this one.
    b.recordRequest(10_000, 3000);
    expect(Array.from({ length: 7 }, () => b.tryRetry(long, 3000)).filter(Boolean)).toHaveLength(6);
    // The 1 s window at 3000 holds only the request at 3000 and the 6 retries just taken.
    expect(b.tryRetry({ ...long, windowMs: 1000 }, 3000)).toBe(false);
  });
});
