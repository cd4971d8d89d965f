/**
 * a2a-resilient/redis — fleet-wide resilience: the circuit breakers and retry budgets of every
 * coordinator replica that uses the same Redis, shared. Needs the `redis` package (node-redis 5 or 6,
 * an optional peer dependency).
 *
 * @example
 * import { A2AClient } from 'a2a-resilient';
 * import { redisStateStore } from 'a2a-resilient/redis';
 * const shared = redisStateStore({ url: 'redis://127.0.0.1:6379', prefix: 'a2a:' });
 * const client = await A2AClient.connect(agentUrl, { sharedState: shared });
 * // …
 * await shared.close();
 *
 * @module a2a-resilient/redis
 */
import { bindSharedState, type SharedState } from '../resilience/shared-state.js';
import type { RedisStateStoreOptions } from './options.js';
import { RedisAgentStates } from './redis-state-store.js';

export type { RedisClientLike, RedisStateStoreOptions, RedisSubscriberLike } from './options.js';
export type { SharedState, SharedStateStatus } from '../resilience/shared-state.js';
export type { SharedStateEvent } from '../resilience/event-types.js';

/**
 * A store that shares per-agent breakers and retry budgets across processes on Redis: pass it as
 * `sharedState` to any number of clients. It connects in the background and never makes a call wait:
 * - a breaker that opens in one process opens in all of them within a second (pub/sub, and polling
 *   every `syncIntervalMs`); after `halfOpenAfterMs` one process of the fleet probes (a `SET NX PX`
 *   lease) while the others keep failing fast; the probe's outcome closes or reopens every breaker;
 * - with `consecutiveFailures`, health failures are counted across the fleet;
 * - retries stay within one budget (ratio of the fleet's requests, one floor) for the whole fleet.
 *
 * While Redis is unreachable, failing or slow, every process goes on with its own state, and a
 * `shared-state` event (`degraded`, then `restored`) reports it. Every key expires (see
 * `docs/replicas-redis.md` in the package for the layout); foreign or corrupt data under the prefix is
 * ignored and overwritten.
 * @throws TypeError when neither or both of `url` and `client` are given, a number option is not
 * positive, or `url` is not a Redis URL (`redis:` or `rediss:`).
 */
export function redisStateStore(options: RedisStateStoreOptions): SharedState {
  const states = new RedisAgentStates(options);
  const handle: SharedState = {
    get status() {
      return states.status;
    },
    close: () => states.close(),
  };
  bindSharedState(handle, states);
  return handle;
}
