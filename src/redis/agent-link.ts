import type { AgentState } from '../resilience/agent-state.js';
import type { CircuitBreakerOptions } from '../resilience/options.js';
import type { AgentSync, FleetControlledBreaker } from '../resilience/state-sync.js';
import { FleetBreaker } from './fleet-breaker.js';
import { FleetBudget } from './fleet-budget.js';
import type { FleetContext } from './fleet-context.js';
import type { BreakerRecord } from './records.js';

/**
 * What ties one agent's local state (an {@link AgentState}) to the fleet: its budget's sync, and its
 * breaker's once the breaker exists. The fleet's breaker state may arrive before the breaker does (a
 * pub/sub message, or the first read): it is kept and applied when the breaker is created.
 */
export class AgentLink implements AgentSync {
  readonly budget: FleetBudget;
  #breaker: FleetBreaker | undefined;
  #early: BreakerRecord | undefined;
  /** The local state this link serves (set by the store right after creating both). */
  state: AgentState | undefined;
  /** Not read from Redis yet: the next round covers it whatever else it does. */
  fresh = true;

  constructor(
    private readonly ctx: FleetContext,
    readonly origin: string,
  ) {
    this.budget = new FleetBudget(ctx, origin);
  }

  breaker(breaker: FleetControlledBreaker, options: CircuitBreakerOptions): FleetBreaker {
    this.#breaker = new FleetBreaker(this.ctx, this.origin, breaker, options);
    if (this.#early) this.#breaker.apply(this.#early);
    this.#early = undefined;
    return this.#breaker;
  }

  /** The breaker's sync, once the breaker exists. */
  get fleetBreaker(): FleetBreaker | undefined {
    return this.#breaker;
  }

  /** True when a sync round should cover this agent: calls in its window, a breaker not closed, or news to tell. */
  get active(): boolean {
    if (this.fresh || this.budget.active) return true;
    const b = this.state?.currentBreaker;
    return b !== undefined && (b.state !== 'closed' || this.#breaker?.dirty === true);
  }

  /**
   * Applies the fleet's breaker state (read or announced), now or once the breaker exists. Returns
   * false when the breaker found the record foreign (see `FleetBreaker.apply`).
   */
  apply(record: BreakerRecord): boolean {
    if (this.#breaker) return this.#breaker.apply(record);
    this.#early = record;
    return true;
  }

  /** The fleet's consecutive-failure count as read by a sync round. */
  fleetFailures(count: number): void {
    this.#breaker?.fleetFailures(count);
  }
}
