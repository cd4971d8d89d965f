import { describe, expect, it } from 'vitest';
import { A2AClientError, isA2AClientError } from '../../src/errors/a2a-client-error.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { pendingDeadlines } from '../../src/transport/timer-heap.js';
import { createResilience, type AttemptInfo, type ResilientCall } from '../../src/resilience/pipeline.js';
import { agentKey, errors, failThenSucceed, rejection } from './fixtures.js';

const fast = { baseDelayMs: 5, maxDelayMs: 20, budget: false as const };
const call = (over: Partial<ResilientCall> = {}): ResilientCall => ({
  method: 'sendMessage',
  idempotent: false,
  deadline: performance.now() + 2000,
  ...over,
});


describe('retry: fail twice then succeed, for each retryable source', () => {
  it.each([
    ['http 503 + Retry-After', () => errors.http(503, { 'retry-after': '0.01' })],
    ['429 problem+json retry_after_ms', () => errors.http(429, {}, { retry_after_ms: 10 })],
    ['json-rpc −32603 with data.retryable/retryAfter', () => errors.rpc(-32603, { retryable: true, retryAfter: 0.01 })],
    ['connection refused', () => errors.refused()],
    ['read timeout (ambiguous: true, same messageId)', () => errors.readTimeout(), true],
  ])('%s', async (_name, make, ambiguous = false) => {
    const events: ResilienceEvent[] = [];
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 3, ambiguous }, onEvent: (e) => events.push(e) });
    const { fn, calls } = failThenSucceed([make(), make()], 'ok');
    await expect(r.execute(call(), fn)).resolves.toBe('ok');
    expect(calls()).toBe(3);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
  });
});

describe('never retried', () => {
  it.each([
    ['−32602 invalid params', errors.rpc(-32602)],
    ['TaskNotFound', errors.rpc(-32001, undefined, 'TaskNotFound')],
    ['is_retriable: false', errors.http(503, { 'retry-after': '0' }, { is_retriable: false })],
  ])('%s', async (_name, error) => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 5 } });
    const { fn, calls } = failThenSucceed([error, error], 'ok');
    const thrown = await rejection(r.execute(call({ idempotent: true, method: 'getTask' }), fn));
    expect(calls()).toBe(1);
    expect(thrown).toMatchObject({ kind: error.kind, agent: 'agent-a', method: 'getTask', retryable: false });
    expect(thrown.attempts).toEqual([error]);
  });
});

describe('deadline', () => {
  it('gives up at once when the server asks for longer than the time left, with retryAfterMs set', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 5 } });
    const started = performance.now();
    const { fn, calls } = failThenSucceed([errors.http(503, { 'retry-after': '5' })], 'ok');
    const thrown = await rejection(r.execute(call({ deadline: performance.now() + 300 }), fn));
    expect(performance.now() - started).toBeLessThan(150);
    expect(calls()).toBe(1);
    expect(thrown).toMatchObject({ kind: 'http', status: 503, retryAfterMs: 5000, retryable: true, agent: 'agent-a', method: 'sendMessage' });
  });

  it('never runs past the deadline: deadline-exceeded with the last attempt as cause, every attempt kept', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { baseDelayMs: 30, maxDelayMs: 30, maxAttempts: 100, budget: false }, circuitBreaker: false });
    const totalMs = 250;
    const started = performance.now();
    let n = 0;
    const thrown = await rejection(
      r.execute(call({ deadline: performance.now() + totalMs, method: 'getTask', idempotent: true }), async ({ scope }) => {
        n++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (scope.aborted) throw new A2AClientError({ kind: 'aborted', message: 'cut' });
        throw errors.http(503);
      }),
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThanOrEqual(totalMs + 150);
    expect(thrown.kind).toBe('deadline-exceeded');
    expect(isA2AClientError(thrown.cause) && thrown.cause.kind).toBeTruthy();
    expect(thrown.attempts.length).toBeGreaterThanOrEqual(n - 1);
    expect(thrown.attempts.length).toBeGreaterThanOrEqual(2);
  });

  it('cuts a hung attempt at the deadline even if it ignores its signal', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: fast });
    const started = performance.now();
    const thrown = await rejection(r.execute(call({ deadline: performance.now() + 80 }), () => new Promise<never>(() => undefined)));
    expect(thrown.kind).toBe('deadline-exceeded');
    expect(performance.now() - started).toBeLessThan(80 + 150);
  });

  it('the attempt signal fires at the deadline', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: false });
    let fired = -1;
    const started = performance.now();
    await rejection(
      r.execute(call({ deadline: performance.now() + 50 }), ({ scope }) => {
        scope.signal.addEventListener('abort', () => (fired = performance.now() - started));
        return new Promise<never>(() => undefined);
      }),
    );
    expect(fired).toBeGreaterThanOrEqual(45);
    expect(fired).toBeLessThan(200);
  });
});

describe('abort', () => {
  it('cuts a backoff wait within a few ms', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { baseDelayMs: 5000, maxDelayMs: 5000, maxServerDelayMs: 5000, budget: false } });
    const controller = new AbortController();
    const pending = rejection(
      r.execute(call({ signal: controller.signal, deadline: performance.now() + 10_000 }), async () => {
        throw errors.http(503, { 'retry-after': '4' });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const abortedAt = performance.now();
    controller.abort(new Error('user cancelled'));
    const thrown = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(40);
    expect(thrown.kind).toBe('aborted');
    expect(thrown.attempts).toHaveLength(1);
    expect(thrown.attempts[0]).toMatchObject({ kind: 'http', status: 503 });
  });

  it('keeps the caller reason as the cause of aborted', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: false });
    const reason = new Error('stop');
    const thrown = await rejection(r.execute(call({ signal: AbortSignal.abort(reason) }), async () => 'never'));
    expect(thrown.kind).toBe('aborted');
    expect(thrown.cause).toBe(reason);
  });
});

describe('retry settings', () => {
  it('maxAttempts counts every attempt, the first included; the final error keeps all of them', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 4 } });
    const failures = [1, 2, 3, 4, 5].map(() => errors.refused());
    const { fn, calls } = failThenSucceed(failures, 'ok');
    const thrown = await rejection(r.execute(call(), fn));
    expect(calls()).toBe(4);
    expect(thrown.attempts).toEqual(failures.slice(0, 4));
    expect(thrown).toMatchObject({ kind: 'connection', retryable: true, agent: 'agent-a', method: 'sendMessage' });
  });

  it('retry: false per call means one attempt', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: fast });
    const { fn, calls } = failThenSucceed([errors.refused()], 'ok');
    await rejection(r.execute(call({ retry: false }), fn));
    expect(calls()).toBe(1);
  });

  it('with ambiguous: true a sendMessage reset after sending goes through with every attempt (same messageId is the caller’s concern)', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 3, ambiguous: true } });
    const seen: number[] = [];
    const result = await r.execute(call(), async ({ attempt }) => {
      seen.push(attempt);
      if (attempt < 3) throw errors.reset();
      return attempt;
    });
    expect(result).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('clamps server delays to maxServerDelayMs', async () => {
    const events: ResilienceEvent[] = [];
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxServerDelayMs: 15 }, onEvent: (e) => events.push(e) });
    const { fn } = failThenSucceed([errors.http(429, { 'retry-after': '100' })], 'ok');
    await expect(r.execute(call(), fn)).resolves.toBe('ok');
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ delayMs: 15 });
  });
});

describe('per-call resources', () => {
  it('leaves no deadline pending after success, retries, failure, an open breaker or a full bulkhead', async () => {
    const before = pendingDeadlines();
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 3 }, maxConcurrent: 1 });
    await r.execute(call(), async () => 'ok');
    await r.execute(call(), failThenSucceed([errors.refused()], 'ok').fn);
    await rejection(r.execute(call(), async () => Promise.reject(errors.rpc(-32602))));
    await rejection(r.execute(call({ deadline: performance.now() - 1 }), async () => 'late'));
    let release: (v: string) => void = () => undefined;
    const holding = r.execute(call(), () => new Promise<string>((resolve) => (release = resolve)));
    expect((await rejection(r.execute(call(), async () => 'x'))).kind).toBe('bulkhead-rejected');
    release('done');
    await holding;
    const open = createResilience(agentKey(), 'agent-a', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 5000 } });
    await rejection(open.execute(call(), async () => Promise.reject(errors.refused())));
    expect((await rejection(open.execute(call(), async () => 'x'))).kind).toBe('circuit-open');
    expect(pendingDeadlines()).toBe(before);
  });

  it('an attempt that reads its signal late still sees the deadline; one that never reads it is still cut', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: false });
    let info: AttemptInfo | undefined;
    const thrown = await rejection(
      r.execute(call({ deadline: performance.now() + 30 }), (a) => {
        info = a;
        return new Promise<never>(() => undefined);
      }),
    );
    expect(thrown.kind).toBe('deadline-exceeded');
    expect(info?.attempt).toBe(1);
    expect(info?.scope.signal.aborted).toBe(true);
    expect(isA2AClientError(info?.scope.signal.reason) && info.scope.signal.reason.kind).toBe('deadline-exceeded');
  });

  it('a synchronous throw of the attempt is an attempt failure, not a throw of execute', async () => {
    const r = createResilience(agentKey(), 'agent-a', { retry: { ...fast, maxAttempts: 2 } });
    let n = 0;
    const result = r.execute(call(), () => {
      n++;
      if (n === 1) throw errors.refused();
      return Promise.resolve('second');
    });
    await expect(result).resolves.toBe('second');
  });
});
