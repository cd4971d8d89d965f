import { AgentBreaker } from './breaker.js';
import { RetryBudget } from './budget.js';
import type { CircuitBreakerOptions } from './options.js';
import type { AgentSync } from './state-sync.js';

/**
 * The resilience state of one agent (its endpoint origin), shared by every client of it: the retry
 * budget and, once a client with a breaker asks for it, the circuit breaker. An
 * {@link AgentStateStore} owns it; pipelines hold it while they use it and fetch a fresh one from the
 * store once it was {@link evicted}.
 *
 * Dropping an {@link evictable} state loses nothing a correct client relies on: a closed breaker
 * with no call in flight behaves as a fresh closed one would (its count of recent failures is
 * forgotten), and a budget forgets retries older than its window anyway.
 */
export class AgentState {
  /** The endpoint origin, e.g. `http://127.0.0.1:4000`. */
  readonly origin: string;
  /** The agent's retry budget. */
  readonly budget = new RetryBudget();
  #breaker: AgentBreaker | undefined;
  readonly #sync: AgentSync | undefined;
  #active = 0;
  #evicted = false;
  /**
   * Used again since it was created or since the store last looked at it (the store's second chance
   * before eviction): set by the store's `get` of an existing state and by {@link enter}, cleared by
   * the store. A new state starts unused, so origins met once go before ones in repeated use.
   */
  used = false;

  /** @param sync given by a store that shares the state across processes: the budget and breaker report to it. */
  constructor(origin: string, sync?: AgentSync) {
    this.origin = origin;
    this.#sync = sync;
    if (sync) this.budget.share(sync.budget);
  }

  /** The agent's breaker, created with `options` on first use; later callers share it (the first options win). */
  breaker(options: CircuitBreakerOptions): AgentBreaker {
    if (this.#breaker === undefined) {
      this.#breaker = new AgentBreaker(this.origin, options);
      if (this.#sync) this.#breaker.share(this.#sync.breaker(this.#breaker, options));
    }
    return this.#breaker;
  }

  /** The breaker when one was created, without creating it. */
  get currentBreaker(): AgentBreaker | undefined {
    return this.#breaker;
  }

  /** A call started: the state is in use until the matching {@link leave}. */
  enter(): void {
    this.#active++;
    this.used = true;
  }

  /** A call that {@link enter}ed ended. */
  leave(): void {
    if (this.#active > 0) this.#active--;
  }

  /** True when dropping it is the same as starting fresh: no call in flight and no breaker that is not closed. */
  get evictable(): boolean {
    return this.#active === 0 && (this.#breaker === undefined || this.#breaker.state === 'closed');
  }

  /** True once the store dropped it: holders get the origin's current state from the store again. */
  get evicted(): boolean {
    return this.#evicted;
  }

  /** Called by the store that drops it. */
  markEvicted(): void {
    this.#evicted = true;
  }
}
