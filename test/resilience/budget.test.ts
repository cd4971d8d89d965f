import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { RetryBudget } from '../../src/resilience/budget.js';
import type { ResilienceEvent } from '../../src/resilience/options.js';
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
});
