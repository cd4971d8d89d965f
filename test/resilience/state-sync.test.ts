/**
 * The hooks a shared store plugs into a breaker and a budget (no Redis here: a recording
 * BreakerSync / BudgetSync stands for the store). What the breaker tells the sync, what the fleet
 * may do to the breaker, and how the sync gates the half-open probe and decides retries.
 */
import { describe, expect, it } from 'vitest';
import { AgentState } from '../../src/resilience/agent-state.js';
import { MemoryAgentStateStore } from '../../src/resilience/agent-state-store.js';
import type { FleetControlledBreaker } from '../../src/resilience/state-sync.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { createResilience, type ResilientCall } from '../../src/resilience/pipeline.js';
import type { AgentSync, BreakerSync, BudgetSync } from '../../src/resilience/state-sync.js';
import { agentKey, errors, rejection } from './fixtures.js';

const read = (): ResilientCall => ({ method: 'getTask', idempotent: true, deadline: performance.now() + 5_000 });
const fail503 = async (): Promise<never> => {
  throw errors.http(503);
};

/** A sync that records what it is told; `wait` is what probeWaitMs answers, `verdict` what allows answers. */
function recordingSync() {
  const told: string[] = [];
  let breaker: FleetControlledBreaker | undefined;
  const control = { wait: 0, verdict: undefined as boolean | undefined, reported: undefined as Promise<void> | undefined };
  const breakerSync: BreakerSync = {
    failed: () => told.push('failed'),
    succeeded: () => told.push('succeeded'),
    opened: () => told.push('opened'),
    probing: () => told.push('probing'),
    closed: () => told.push('closed'),
    probeWaitMs: () => control.wait,
    reported: () => control.reported,
  };
  const budget: BudgetSync = {
    requested: () => told.push('requested'),
    retried: () => told.push('retried'),
    allows: () => control.verdict,
  };
  const sync: AgentSync = {
    budget,
    breaker: (b) => {
      breaker = b;
      return breakerSync;
    },
  };
  return { sync, told, control, breaker: () => breaker };
}

function setup(breakerOptions = { consecutiveFailures: 2, halfOpenAfterMs: 60_000 }) {
  const rec = recordingSync();
  const store = new MemoryAgentStateStore({ create: (origin) => new AgentState(origin, rec.sync) });
  const events: ResilienceEvent[] = [];
  const p = createResilience(agentKey(), 'agent', { store, retry: false, circuitBreaker: breakerOptions, onEvent: (e) => events.push(e) });
  const b = rec.breaker();
  if (!b) throw new Error('the breaker was not shared with the sync');
  return { ...rec, p, b, events };
}

describe('breaker and budget sync hooks', () => {
  it('tells the sync every counted outcome and each transition decided here', async () => {
    const { p, told } = setup();
    await p.execute(read(), async () => 'ok');
    await rejection(p.execute(read(), fail503));
    await rejection(p.execute(read(), fail503));
    expect(told).toEqual(['requested', 'succeeded', 'requested', 'failed', 'requested', 'failed', 'opened']);
    // Refused while open: nothing counted, nothing told.
    await rejection(p.execute(read(), fail503));
    expect(told).toHaveLength(7);
  });

  it('trip and closeFromFleet move the breaker for the fleet; stale openings are ignored', async () => {
    const { p, b, told, events } = setup();
    const at = Date.now() - 1_000;
    expect(b.trip(at)).toBe(true);
    expect(p.isOpen()).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['breaker-open']);
    expect(b.trip(at)).toBe(false);
    expect(b.trip(at - 5)).toBe(false);
    // A later opening only moves the probe time.
    expect(b.trip(at + 10)).toBe(true);
    expect(b.openedAt).toBe(at + 10);
    expect(events).toHaveLength(1);
    expect(b.closeFromFleet(at)).toBe(false);
    expect(b.closeFromFleet(at + 10)).toBe(true);
    expect(p.breakerState()).toBe('closed');
    // A late copy of the opening just closed cannot open it again; a newer one can.
    expect(b.trip(at + 10)).toBe(false);
    expect(b.nextOpening()).toBeGreaterThan(at + 10);
    expect(b.trip(at + 11)).toBe(true);
    // None of it was told back to the sync.
    expect(told).toEqual([]);
  });

  it('past halfOpenAfterMs, probes only when the sync says so, and tells it when the probe starts and ends', async () => {
    const { p, b, told, control } = setup({ consecutiveFailures: 1, halfOpenAfterMs: 10_000 });
    b.trip(Date.now() - 20_000);
    control.wait = 250;
    expect(p.isOpen()).toBe(true);
    const refused = await rejection(p.execute(read(), async () => 'ok'));
    expect(refused).toMatchObject({ kind: 'circuit-open', retryAfterMs: 250 });
    control.wait = 0;
    expect(p.isOpen()).toBe(false);
    expect(await p.execute(read(), async () => 'ok')).toBe('ok');
    expect(told).toEqual(['requested', 'probing', 'closed']);
  });

  it("the budget follows the sync's verdict, and decides locally without one", async () => {
    const rec = recordingSync();
    const state = new AgentState('http://budget.invalid', rec.sync);
    const options = { ratio: 0, minPerSecond: 0.1, windowMs: 10_000 };
    state.budget.recordRequest(options.windowMs);
    rec.control.verdict = false;
    expect(state.budget.tryRetry(options)).toBe(false);
    rec.control.verdict = true;
    expect(state.budget.tryRetry(options)).toBe(true);
    expect(state.budget.tryRetry(options)).toBe(true);
    rec.control.verdict = undefined;
    // Locally: a floor of 1 over the window, already spent by the two retries the fleet allowed.
    expect(state.budget.tryRetry(options)).toBe(false);
    expect(rec.told).toEqual(['requested', 'retried', 'retried']);
  });

  it('holds a call while the fleet has not counted a failure reported here; the call\'s deadline ends the hold', async () => {
    const { p, control } = setup({ consecutiveFailures: 5, halfOpenAfterMs: 60_000 });
    let count!: () => void;
    control.reported = new Promise<void>((resolve) => (count = resolve));
    let called = 0;
    const attempt = async (): Promise<string> => {
      called++;
      return 'ok';
    };
    const held = p.execute(read(), attempt);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(called).toBe(0);
    control.reported = undefined;
    count();
    expect(await held).toBe('ok');
    expect(called).toBe(1);
    // Never counted (Redis silent): a call with 30 ms left fails with its deadline, not after the store's timeout.
    control.reported = new Promise<void>(() => undefined);
    const t0 = performance.now();
    const late = await rejection(p.execute({ ...read(), deadline: performance.now() + 30 }, attempt));
    expect(late.kind).toBe('deadline-exceeded');
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
