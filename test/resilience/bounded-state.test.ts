/**
 * A coordinator that meets a great many distinct agents keeps bounded memory: per-origin breakers
 * and budgets are evicted once idle, through the path every client takes (its pipeline, and
 * `new A2AClient(card)` itself), while an open breaker survives the pressure and keeps failing fast.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { A2AClient } from '../../src/index.js';
import { processAgentStates } from '../../src/resilience/agent-state-store.js';
import { createResilience, type ResilientCall } from '../../src/resilience/pipeline.js';
import { errors, rejection } from './fixtures.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const MiB = 1024 * 1024;
const read = (): ResilientCall => ({ method: 'getTask', idempotent: true, deadline: performance.now() + 5_000 });
const options = { retry: { maxAttempts: 2 }, circuitBreaker: { consecutiveFailures: 3, halfOpenAfterMs: 600_000 } };
const ok = async (): Promise<string> => 'ok';

/** Builds each origin's pipeline (breaker, budget) and runs one call through it, as a client's first call does. */
async function meetAgents(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    const pipeline = createResilience(`http://agent-${i}.invalid`, `agent-${i}`, options);
    await pipeline.execute(read(), ok);
  }
}

describe('per-origin state stays bounded', () => {
  it('200k distinct origins: heap growth bounded, an open breaker survives and still fails fast', async () => {
    const deadKey = 'http://dead-agent.invalid';
    const dead = createResilience(deadKey, 'dead', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 600_000 } });
    await rejection(dead.execute(read(), async () => Promise.reject(errors.http(503))));
    expect(processAgentStates.peek(deadKey)?.currentBreaker?.isOpen()).toBe(true);

    await meetAgents(0, 20_000); // the store is full from here on
    const before = heapUsed();
    await meetAgents(20_000, 200_000);
    const grown = heapUsed() - before;
    console.log(`heap growth over 180k more origins: ${(grown / MiB).toFixed(1)} MiB`);
    // Kept forever, 180k breakers and budgets would take hundreds of MiB.
    expect(grown).toBeLessThan(24 * MiB);

    expect(processAgentStates.peek(deadKey)?.currentBreaker?.isOpen()).toBe(true);
    expect((await rejection(dead.execute(read(), ok))).kind).toBe('circuit-open');
    // A new client of the dead agent shares the open breaker.
    const again = createResilience(deadKey, 'dead', { retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 600_000 } });
    expect((await rejection(again.execute(read(), ok))).kind).toBe('circuit-open');
  }, 60_000);

  it('new A2AClient(card) per origin (16k clients, some calling) keeps the heap bounded too', async () => {
    const dispatcher = new Agent();
    const aborted = AbortSignal.abort(new Error('no network in this test'));
    const meetClients = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i++) {
        const card = { name: `client-${i}`, supportedInterfaces: [{ url: `http://client-${i}.invalid/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
        const client = new A2AClient(card, { ...options, dispatcher });
        // An already-aborted call goes through the pipeline (state in use, then released) without a request.
        if (i % 50 === 0) expect((await rejection(client.getTask({ id: 't' }, { signal: aborted }))).kind).toBe('aborted');
      }
    };
    try {
      await meetClients(0, 5_000);
      const before = heapUsed();
      await meetClients(5_000, 16_000);
      const grown = heapUsed() - before;
      console.log(`heap growth over 11k more clients: ${(grown / MiB).toFixed(1)} MiB`);
      // Kept forever, their states would take some 16 MiB.
      expect(grown).toBeLessThan(6 * MiB);
    } finally {
      await dispatcher.close();
    }
  }, 60_000);
});
