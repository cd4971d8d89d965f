/**
 * Shared setup of the Redis store tests: one real redis-server per test file (on a free loopback
 * port), an inspection client, stores with a fresh prefix per test (so tests never see each other's
 * keys), and pipelines over a store's states — the calls a client would make, without HTTP.
 */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { redisStateStore, type RedisStateStoreOptions } from '../../src/redis/index.js';
import { createResilience, type Resilience, type ResilienceOptions, type ResilientCall } from '../../src/resilience/pipeline.js';
import { agentStatesOf, type SharedState } from '../../src/resilience/shared-state.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

export type Inspector = ReturnType<typeof createClient>;

/** A read (retried after ambiguous failures), with a 5 s deadline. */
export const read = (): ResilientCall => ({ method: 'getTask', idempotent: true, deadline: performance.now() + 5_000 });

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` every 5 ms; resolves with the ms it took, rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<number> {
  const t0 = performance.now();
  while (!predicate()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
  return performance.now() - t0;
}

let seq = 0;

/** Registers the hooks of one test file. */
export function useRedis() {
  let server: RedisServer | undefined;
  let inspector: Inspector | undefined;
  const inspectorErrors: unknown[] = [];
  const stores: SharedState[] = [];
  const pipelines: Resilience[] = [];
  let prefix = 'test:';

  beforeAll(async () => {
    server = await startRedisServer();
    inspector = createClient({ url: server.url, socket: { reconnectStrategy: 50 } });
    // Tests kill the server: the inspector's disconnects are expected, kept for debugging.
    inspector.on('error', (error: unknown) => inspectorErrors.push(error));
    await inspector.connect();
  });
  afterEach(async () => {
    for (const p of pipelines.splice(0)) p.dispose();
    await Promise.all(stores.splice(0).map((s) => s.close()));
    seq++;
    prefix = `test${seq}:`;
  });
  afterAll(async () => {
    inspector?.destroy();
    await server?.stop();
  });

  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not started`);
    return value;
  };

  return {
    get server(): RedisServer {
      return need(server, 'redis-server');
    },
    get inspector(): Inspector {
      return need(inspector, 'the inspector');
    },
    /** This test's key prefix. */
    get prefix(): string {
      return prefix;
    },
    /** A store on the test server with this test's prefix (closed after the test). */
    store(options: Partial<RedisStateStoreOptions> = {}): SharedState {
      const store = redisStateStore({ url: need(server, 'redis-server').url, prefix, syncIntervalMs: 50, ...options });
      stores.push(store);
      return store;
    },
    /** A pipeline for `origin` over `store`'s states (disposed after the test). */
    pipeline(store: SharedState, origin: string, options: ResilienceOptions = {}): Resilience {
      const p = createResilience(origin, 'agent', { ...options, store: agentStatesOf(store) });
      pipelines.push(p);
      return p;
    },
    /** Resolves once every store is synced. */
    synced: (...list: SharedState[]) => waitFor(() => list.every((s) => s.status === 'synced'), 5_000, 'stores to sync'),
  };
}
