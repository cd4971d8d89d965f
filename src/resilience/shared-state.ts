import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AgentStateStore } from './agent-state-store.js';

/**
 * Where a shared store stands: `connecting` until its first sync, `synced` while it shares state,
 * `degraded` while its backend is unreachable or slow (this process goes on alone), `closed` after
 * `close()` (this process goes on alone for good).
 */
export type SharedStateStatus = 'connecting' | 'synced' | 'degraded' | 'closed';

/**
 * Per-agent resilience state (circuit breakers, retry budgets) shared by every process that uses
 * the same backend: the `sharedState` client option. Make one with `redisStateStore` from
 * `a2a-resilient/redis`; one store serves any number of clients.
 */
export interface SharedState {
  /** Where the store stands now. */
  readonly status: SharedStateStatus;
  /**
   * Stops syncing and closes the connections the store opened (not a client you passed in).
   * Clients using the store go on with this process's own state. Never rejects.
   */
  close(): Promise<void>;
}

/** The agent states behind each store handed out (kept out of the public type). */
const stores = new WeakMap<SharedState, AgentStateStore>();

/** Registers `states` as what `handle` shares; called by the store's factory. */
export function bindSharedState(handle: SharedState, states: AgentStateStore): void {
  stores.set(handle, states);
}

/**
 * The agent states behind a `sharedState` option.
 * @throws A2AClientError kind `unsupported` when `handle` was not made by this package's store factory.
 */
export function agentStatesOf(handle: SharedState): AgentStateStore {
  const states = stores.get(handle);
  if (states === undefined) {
    throw new A2AClientError({
      kind: 'unsupported',
      message: 'options.sharedState must be a store made by redisStateStore() from a2a-resilient/redis',
    });
  }
  return states;
}
