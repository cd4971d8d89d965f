/**
 * The bounded per-origin state store: idle states make room for new origins, while open and
 * half-open breakers and states with a call in flight are never dropped; a pipeline whose state was
 * dropped continues on the origin's current state, as a fresh one would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryAgentStateStore } from '../../src/resilience/agent-state-store.js';
import { createResilience, type ResilientCall } from '../../src/resilience/pipeline.js';
import { errors, rejection } from './fixtures.js';

const breaker = { consecutiveFailures: 1, halfOpenAfterMs: 60_000 };
const origin = (i: number): string => `http://agent-${i}.invalid`;
const read = (): ResilientCall => ({ method: 'getTask', idempotent: true, deadline: performance.now() + 5_000 });

describe('MemoryAgentStateStore', () => {
  it('holds at most maxAgents idle origins, dropping ones not used for a full round', () => {
    const store = new MemoryAgentStateStore({ maxAgents: 8 });
    const first = store.get(origin(0));
    for (let i = 1; i < 100; i++) store.get(origin(i));
    expect(store.size).toBe(8);
    expect(first.evicted).toBe(true);
    expect(store.peek(origin(0))).toBeUndefined();
    expect(store.peek(origin(99))?.evicted).toBe(false);
  });

  it('gives a state used since the hand last passed a second chance', () => {
    const store = new MemoryAgentStateStore({ maxAgents: 4 });
    const hot = store.get(origin(0));
    for (let i = 1; i < 50; i++) {
      store.get(origin(0));
      store.get(origin(i));
    }
    expect(hot.evicted).toBe(false);
    expect(store.size).toBe(4);
  });

  it('never drops an open breaker or a state with a call in flight, even past maxAgents', () => {
    const store = new MemoryAgentStateStore({ maxAgents: 4 });
    const open = store.get(origin(0));
    const b = open.breaker(breaker);
    // Open it the way the pipeline does: a marked health failure through execute.
    const pipeline = createResilience(origin(0), 'open', { store, retry: false, circuitBreaker: breaker });
    const busy = store.get(origin(1));
    busy.enter();
    return rejection(pipeline.execute(read(), async () => Promise.reject(errors.http(503)))).then(() => {
      expect(b.state).toBe('open');
      for (let i = 2; i < 1_000; i++) store.get(origin(i));
      expect(open.evicted).toBe(false);
      expect(busy.evicted).toBe(false);
      expect(store.size).toBeLessThanOrEqual(4 + 16);
      busy.leave();
      for (let i = 1_000; i < 1_100; i++) store.get(origin(i));
      expect(busy.evicted).toBe(true);
      expect(open.evicted).toBe(false);
    });
  });

  it('evict(origin) and evict() drop whatever is held; holders notice', () => {
    const store = new MemoryAgentStateStore();
    const a = store.get(origin(1));
    const b = store.get(origin(2));
    a.breaker(breaker);
    store.evict(origin(1));
    expect([a.evicted, b.evicted, store.size]).toEqual([true, false, 1]);
    store.evict();
    expect([b.evicted, store.size]).toEqual([true, 0]);
  });

  it('property: for any sequence of gets, calls and breaker failures, size stays bounded and nothing busy or open is dropped', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('get' as const), at: fc.integer({ min: 0, max: 63 }) }),
      fc.record({ kind: fc.constant('enter' as const), at: fc.integer({ min: 0, max: 63 }) }),
      fc.record({ kind: fc.constant('leave' as const), at: fc.integer({ min: 0, max: 63 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 300 }), (max, ops) => {
        const store = new MemoryAgentStateStore({ maxAgents: max });
        const busy = new Map<number, number>();
        for (const o of ops) {
          const state = store.get(origin(o.at));
          if (o.kind === 'enter') {
            state.enter();
            busy.set(o.at, (busy.get(o.at) ?? 0) + 1);
          } else if (o.kind === 'leave' && (busy.get(o.at) ?? 0) > 0) {
            state.leave();
            busy.set(o.at, (busy.get(o.at) ?? 0) - 1);
          }
          const inUse = [...busy.values()].filter((n) => n > 0).length;
          // Bounded: at most max idle states beyond the busy ones, plus one sweep's slack.
          expect(store.size).toBeLessThanOrEqual(Math.max(max, inUse + 1) + 16);
          for (const [at, n] of busy) if (n > 0) expect(store.peek(origin(at))?.evicted).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('a pipeline whose idle state was dropped', () => {
  it('continues on the origin’s current state: a fresh closed breaker that the store knows when it opens', async () => {
    const store = new MemoryAgentStateStore({ maxAgents: 2 });
    const key = origin(1);
    const r = createResilience(key, 'agent', { store, retry: false, circuitBreaker: { consecutiveFailures: 2, halfOpenAfterMs: 60_000 } });
    const failing = async (): Promise<string> => Promise.reject(errors.http(503));
    await rejection(r.execute(read(), failing));
    const before = store.peek(key);
    for (let i = 2; i < 50; i++) store.get(origin(i));
    expect(before?.evicted).toBe(true);
    // One failure counted on the dropped breaker is forgotten, as on a fresh breaker.
    await rejection(r.execute(read(), failing));
    expect(r.breakerState()).toBe('closed');
    await rejection(r.execute(read(), failing));
    expect(r.breakerState()).toBe('open');
    expect(store.peek(key)?.currentBreaker?.state).toBe('open');
    expect((await rejection(r.execute(read(), failing))).kind).toBe('circuit-open');
  });

  it('a call in flight keeps its state; a restored initialState is applied once, not again after an eviction', async () => {
    const store = new MemoryAgentStateStore({ maxAgents: 2 });
    const key = origin(7);
    let release: (value: string) => void = () => undefined;
    const r = createResilience(key, 'agent', { store, retry: false, circuitBreaker: breaker });
    const inFlight = r.execute(read(), () => new Promise<string>((resolve) => (release = resolve)));
    const held = store.peek(key);
    for (let i = 10; i < 200; i++) store.get(origin(i));
    expect(held?.evicted).toBe(false);
    release('done');
    await expect(inFlight).resolves.toBe('done');

  });
});
