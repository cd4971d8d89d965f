import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { Bulkhead } from '../../src/resilience/bulkhead.js';
import { createResilience } from '../../src/resilience/pipeline.js';
import { agentKey } from './fixtures.js';
import { CallScope } from '../../src/transport/call-scope.js';

describe('bulkhead', () => {
  it('runs at most maxConcurrent at once, queues maxQueued and rejects the rest', async () => {
    const r = createResilience(agentKey(), 'agent-d', { retry: false, maxConcurrent: 2, maxQueued: 1 });
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const work = () =>
      r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 2000 }, async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return 'done';
      });
    const calls = [work(), work(), work(), work()];
    const rejected = await calls[3]?.catch((error: unknown) => error);
    expect(isA2AClientError(rejected) && rejected.kind).toBe('bulkhead-rejected');
    expect(isA2AClientError(rejected) && rejected.agent).toBe('agent-d');
    expect(releases).toHaveLength(2);
    releases.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(releases).toHaveLength(2);
    for (const release of releases.splice(0)) release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    releases.shift()?.();
    await expect(Promise.all(calls.slice(0, 3))).resolves.toEqual(['done', 'done', 'done']);
    expect(peak).toBe(2);
  });

  it('a queued call leaves the queue on abort', async () => {
    const b = new Bulkhead(1, 5);
    const release = await b.acquire(new CallScope());
    const controller = new AbortController();
    const queued = b.acquire(new CallScope({ signal: controller.signal }));
    expect(b.queued).toBe(1);
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(queued).rejects.toMatchObject({ kind: 'aborted', cause: reason });
    expect(b.queued).toBe(0);
    release();
    expect(b.active).toBe(0);
  });

  it('a slot granted just before the scope cuts the wait goes back, not lost', async () => {
    const b = new Bulkhead(1, 5);
    const release = await b.acquire(new CallScope());
    const controller = new AbortController();
    const queued = b.acquire(new CallScope({ signal: controller.signal }));
    // The slot passes to the queued call, whose scope fails before it can take it.
    release();
    controller.abort(new Error('gone'));
    await expect(queued).rejects.toMatchObject({ kind: 'aborted' });
    expect(b.active).toBe(0);
    expect(b.queued).toBe(0);
    const next = b.tryAcquire();
    expect(next).toBeTypeOf('function');
    next?.();
  });

  it('a queued call leaves the queue at its deadline with deadline-exceeded', async () => {
    const r = createResilience(agentKey(), 'agent-d', { retry: false, maxConcurrent: 1, maxQueued: 1 });
    let free: () => void = () => undefined;
    const first = r.execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 2000 }, () => new Promise<string>((resolve) => (free = () => resolve('one'))));
    const started = performance.now();
    const second = await r
      .execute({ method: 'getTask', idempotent: true, deadline: performance.now() + 50 }, async () => 'two')
      .catch((error: unknown) => error);
    expect(isA2AClientError(second) && second.kind).toBe('deadline-exceeded');
    // At its own 50 ms deadline, not when the slot frees (2 s).
    expect(performance.now() - started).toBeLessThan(1_000);
    free();
    await expect(first).resolves.toBe('one');
  });
});
