import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIAGNOSTICS_CHANNELS } from '../../src/resilience/events.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { createResilience } from '../../src/resilience/pipeline.js';
import { agentKey, errors, failThenSucceed } from './fixtures.js';

const subscriptions: Array<[string, (message: unknown) => void]> = [];
afterEach(() => {
  for (const [name, fn] of subscriptions.splice(0)) unsubscribe(name, fn);
});

function listen(name: string): unknown[] {
  const seen: unknown[] = [];
  const fn = (message: unknown): void => {
    seen.push(message);
  };
  subscribe(name, fn);
  subscriptions.push([name, fn]);
  return seen;
}

describe('observability', () => {
  it('emits retry and give-up to onEvent and publishes them on diagnostics_channel', async () => {
    const retries = listen(DIAGNOSTICS_CHANNELS.retry);
    const giveUps = listen(DIAGNOSTICS_CHANNELS['give-up']);
    const events: ResilienceEvent[] = [];
    const r = createResilience(agentKey(), 'agent-e', { retry: { maxAttempts: 2, baseDelayMs: 1, budget: false }, onEvent: (e) => events.push(e) });
    const { fn } = failThenSucceed([errors.refused(), errors.refused()], 'x');
    await r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 1000 }, fn).catch((e: unknown) => e);
    expect(events.map((e) => e.type)).toEqual(['retry', 'give-up']);
    expect(events[0]).toMatchObject({ type: 'retry', agent: 'agent-e', method: 'getTask', attempt: 1, reason: 'transport:before-send' });
    expect(events[1]).toMatchObject({ type: 'give-up', attempts: 2 });
    expect(retries).toHaveLength(1);
    expect(giveUps).toHaveLength(1);
  });

  it('publishes breaker transitions once per agent', async () => {
    const opens = listen(DIAGNOSTICS_CHANNELS['breaker-open']);
    const key = agentKey();
    const r = createResilience(key, 'agent-e', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 1000 } });
    createResilience(key, 'agent-e-again', { retry: false });
    await r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 1000 }, async () => Promise.reject(errors.refused())).catch((e: unknown) => e);
    expect(opens).toEqual([expect.objectContaining({ type: 'breaker-open', agent: key, retryAfterMs: 1000 })]);
  });

  it('a throwing onEvent does not break the call; it is reported as one warning (captured here, not printed)', async () => {
    const warnings: Array<{ text: string; code: unknown }> = [];
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error, options?: unknown) => {
      warnings.push({ text: String(warning), code: typeof options === 'object' && options !== null && 'code' in options ? options.code : undefined });
    });
    try {
      const r = createResilience(agentKey(), 'agent-e', {
        retry: { maxAttempts: 3, baseDelayMs: 1, budget: false },
        onEvent: () => {
          throw new Error('listener bug');
        },
      });
      const { fn } = failThenSucceed([errors.refused()], 'fine');
      await expect(r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 1000 }, fn)).resolves.toBe('fine');
      expect(warnings).toEqual([{ text: 'a2a-resilient: an onEvent listener threw: listener bug', code: 'A2A_RESILIENT_ON_EVENT' }]);
    } finally {
      spy.mockRestore();
    }
  });
});
