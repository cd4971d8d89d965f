import { afterEach, describe, expect, it, vi } from 'vitest';
import type { A2AClientError } from '../../src/errors/a2a-client-error.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { createResilience, type ResilientCall } from '../../src/resilience/pipeline.js';
import { agentKey, errors, rejection } from './fixtures.js';

// The breaker's clock is Date.now(): time passes by moving it, not by waiting (deadlines and
// latencies still run on real timers and performance.now()).
afterEach(() => {
  vi.useRealTimers();
});
const passTime = (ms: number): void => {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + ms);
};

const call = (): ResilientCall => ({ method: 'getTask', idempotent: true, deadline: performance.now() + 5000 });


function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

describe('circuit breaker', () => {
  it('opens after N health failures, fails fast, half-opens after halfOpenAfterMs and closes on a good probe', async () => {
    const key = agentKey();
    const events: ResilienceEvent[] = [];
    const r = createResilience(key, 'agent-b', {
      retry: false,
      // Long enough that the fail-fast loop below never reaches it, even on a loaded machine.
      circuitBreaker: { consecutiveFailures: 3, halfOpenAfterMs: 60_000 },
      onEvent: (e) => events.push(e),
    });
    let calls = 0;
    const failing = async (): Promise<string> => {
      calls++;
      throw errors.http(503);
    };
    for (let i = 0; i < 3; i++) expect((await rejection(r.execute(call(), failing))).kind).toBe('http');
    expect(r.breakerState()).toBe('open');
    expect(r.isOpen()).toBe(true);

    const open = await rejection(r.execute(call(), failing));
    expect(open).toMatchObject({ kind: 'circuit-open', agent: 'agent-b', method: 'getTask' });
    expect(open.retryAfterMs).toBeGreaterThan(50_000);
    expect(open.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(calls).toBe(3);

    // fail-fast latency while open
    for (let i = 0; i < 3000; i++) await r.execute(call(), failing).catch((error: unknown) => error);
    const times: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const t0 = performance.now();
      await r.execute(call(), failing).catch((error: unknown) => error);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    console.log(`breaker-open fail-fast: p50 ${(p50 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs over ${times.length} calls`);
    // The latency itself is measured in bench/; here only that refusing never waits for anything.
    expect(p50).toBeLessThan(5);
    expect(calls).toBe(3);

    passTime((r.breaker?.retryAfterMs() ?? 0) + 20);
    expect(r.isOpen()).toBe(false);
    await expect(r.execute(call(), async () => 'probe ok')).resolves.toBe('probe ok');
    expect(r.breakerState()).toBe('closed');
    expect(events.map((e) => e.type).filter((t) => t.startsWith('breaker-'))).toEqual(['breaker-open', 'breaker-half-open', 'breaker-close']);
  });

  it('lets only one probe through while half-open; others fail fast', async () => {
    const key = agentKey();
    const r = createResilience(key, 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 30 } });
    await rejection(r.execute(call(), async () => Promise.reject(errors.refused())));
    passTime(40);
    let release: (v: string) => void = () => undefined;
    const probe = r.execute(call(), () => new Promise<string>((resolve) => (release = resolve)));
    const other = await rejection(r.execute(call(), async () => 'second'));
    expect(other.kind).toBe('circuit-open');
    release('done');
    await expect(probe).resolves.toBe('done');
    expect(r.breakerState()).toBe('closed');
  });

  it('reopens when the probe fails', async () => {
    const r = createResilience(agentKey(), 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 30 } });
    await rejection(r.execute(call(), async () => Promise.reject(errors.readTimeout())));
    passTime(40);
    await rejection(r.execute(call(), async () => Promise.reject(errors.readTimeout())));
    expect(r.breakerState()).toBe('open');
  });

  it.each([
    ['−32602', errors.rpc(-32602)],
    ['TaskNotFound', errors.rpc(-32001, undefined, 'TaskNotFound')],
    ['HTTP 400', errors.http(400)],
    ['aborted', errors.of('aborted')],
  ])('never trips on business outcomes: %s', async (_name, error) => {
    const r = createResilience(agentKey(), 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 1000 } });
    for (let i = 0; i < 10; i++) await rejection(r.execute(call(), async () => Promise.reject(error)));
    expect(r.breakerState()).toBe('closed');
  });

  it('is shared by every client of the same origin', async () => {
    const key = agentKey();
    const a = createResilience(key, 'client-1', { retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 1000 } });
    const b = createResilience(key, 'client-2', { retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 1000 } });
    await rejection(a.execute(call(), async () => Promise.reject(errors.refused())));
    await rejection(b.execute(call(), async () => Promise.reject(errors.refused())));
    expect((await rejection(a.execute(call(), async () => 'x'))).kind).toBe('circuit-open');
  });

  it('lets exactly one probe through when due, refusing the others while it runs; a probe failing for business reasons closes it', async () => {
    vi.useFakeTimers();
    try {
      const r = createResilience(agentKey(), 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 1000 } });
      await rejection(r.execute(call(), async () => Promise.reject(errors.refused())));
      vi.advanceTimersByTime(1000);
      let fail: (error: A2AClientError) => void = () => undefined;
      const probe = r.execute(call(), () => new Promise<string>((_resolve, reject) => (fail = reject)));
      expect(r.breakerState()).toBe('half-open');
      const refused = await rejection(r.execute(call(), async () => 'not run'));
      expect(refused).toMatchObject({ kind: 'circuit-open', retryAfterMs: 1 });
      fail(errors.http(400));
      expect((await rejection(probe)).kind).toBe('http');
      expect(r.breakerState()).toBe('closed');
      await expect(r.execute(call(), async () => 'runs')).resolves.toBe('runs');
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens on a failure ratio with sampling', async () => {
    const r = createResilience(agentKey(), 'agent-b', {
      retry: false,
      circuitBreaker: { consecutiveFailures: 1000, halfOpenAfterMs: 1000, sampling: { threshold: 0.5, durationMs: 1000, minimumRps: 1 } },
    });
    for (let i = 0; i < 20; i++) {
      await r.execute(call(), async () => (i % 3 === 0 ? 'ok' : Promise.reject(errors.http(502)))).catch((e: unknown) => e);
    }
    expect(r.breakerState()).toBe('open');
  });
});

describe('circuit breaker: aborted probe', () => {
  it('re-opens (does not close) when the caller aborts the half-open probe', async () => {
    const r = createResilience(agentKey(), 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 30 } });
    await rejection(r.execute(call(), async () => Promise.reject(errors.refused())));
    passTime(40);
    const controller = new AbortController();
    const probe = rejection(r.execute({ ...call(), signal: controller.signal }, () => new Promise<string>(() => undefined)));
    controller.abort(new Error('caller gave up'));
    expect((await probe).kind).toBe('aborted');
    expect(r.breakerState()).toBe('open');
  });
});

describe('circuit breaker: counting while closed', () => {
  it('consecutive: a success resets the count; errors that are not health failures neither count nor reset', async () => {
    const r = createResilience(agentKey(), 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 3, halfOpenAfterMs: 5000 } });
    const fail = (error: A2AClientError) => rejection(r.execute(call(), async () => Promise.reject(error)));
    await fail(errors.http(503));
    await fail(errors.http(503));
    await r.execute(call(), async () => 'ok');
    await fail(errors.http(503));
    await fail(errors.http(503));
    expect(r.breakerState()).toBe('closed');
    await fail(errors.http(400));
    expect(r.breakerState()).toBe('closed');
    await fail(errors.http(503));
    expect(r.breakerState()).toBe('open');
  });

  it('a health failure opens the breaker before the caller sees it; the next call is refused', async () => {
    const key = agentKey();
    const r = createResilience(key, 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 5000 } });
    const first = await rejection(r.execute(call(), async () => Promise.reject(errors.refused())));
    expect(first.kind).toBe('connection');
    expect(r.isOpen()).toBe(true);
    expect((await rejection(r.execute(call(), async () => 'x'))).kind).toBe('circuit-open');
  });

  it('a failure of a call started before the breaker opened does not end the half-open probe; the probe decides', async () => {
    const r = createResilience(agentKey(), 'agent-b', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 30 } });
    let failStraggler: (error: A2AClientError) => void = () => undefined;
    const straggler = rejection(r.execute(call(), () => new Promise<string>((_resolve, reject) => (failStraggler = reject))));
    await rejection(r.execute(call(), async () => Promise.reject(errors.refused())));
    expect(r.breakerState()).toBe('open');
    passTime(40);
    let release: (v: string) => void = () => undefined;
    const probe = r.execute(call(), () => new Promise<string>((resolve) => (release = resolve)));
    expect(r.breakerState()).toBe('half-open');
    failStraggler(errors.http(503));
    expect((await straggler).kind).toBe('http');
    expect(r.breakerState()).toBe('half-open');
    release('probe ok');
    await expect(probe).resolves.toBe('probe ok');
    expect(r.breakerState()).toBe('closed');
  });
});
