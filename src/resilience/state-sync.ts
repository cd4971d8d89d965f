import type { CircuitBreakerOptions, RetryBudgetOptions } from './options.js';

/**
 * What a shared store may do to one agent's breaker (`AgentBreaker`): read where it stands, open it
 * because another process's breaker opened, close it because another process's probe succeeded.
 */
export interface FleetControlledBreaker {
  readonly state: 'closed' | 'open' | 'half-open';
  /** `Date.now()` when it last opened (0 if never). */
  readonly openedAt: number;
  /** The time to open with now (never older than the last opening known). */
  nextOpening(): number;
  /** Opens it as of `openedAt` (a later opening wins); true when anything changed. */
  trip(openedAt: number): boolean;
  /** Closes it after a probe of the opening `openedAt` succeeded elsewhere; true when it closed. */
  closeFromFleet(openedAt: number): boolean;
}

/**
 * How a store that shares per-agent state across processes (`a2a-resilient/redis`) plugs into one
 * agent's breaker. The breaker calls these on the hot path, so every method is
 * synchronous, O(1) and never throws: the store records what happened and talks to its backend in
 * the background. Without a sync the breaker is purely local.
 */
export interface BreakerSync {
  /** A health failure was counted while closed. */
  failed(): void;
  /** A call succeeded while closed. */
  succeeded(): void;
  /** The breaker opened here (counted here, or a failed probe), at `openedAt` (`Date.now()`). */
  opened(openedAt: number): void;
  /** This process started the half-open probe. */
  probing(): void;
  /** The probe that ran here succeeded: the breaker closed. */
  closed(): void;
  /**
   * Asked when the breaker is open and its `halfOpenAfterMs` has passed: 0 when this process may
   * run the one half-open probe now, otherwise how long to wait (ms, ≥ 1) — another process holds
   * the probe. May start acquiring the right to probe in the background.
   */
  probeWaitMs(): number;
  /**
   * While the fleet has not yet counted a health failure this process reported, a promise that
   * resolves once it has (or once the store gives up waiting for Redis); otherwise `undefined`. The
   * breaker holds its next call to the agent until then, so that call is decided on the fleet's
   * count, not raced against it: beyond `consecutiveFailures`, the fleet's agent then sees at most
   * the requests that were in flight when the count was reached, however long each process took to
   * report its failure. Never rejects.
   */
  reported?(): Promise<void> | undefined;
}

/**
 * How a shared store plugs into one agent's retry budget (see {@link BreakerSync} for the rules:
 * synchronous, O(1), never throws).
 */
export interface BudgetSync {
  /** A first attempt was counted, under a budget of `windowMs`. */
  requested(windowMs: number): void;
  /** A retry was taken from the budget. */
  retried(): void;
  /**
   * The fleet's verdict on one more retry: true or false, or `undefined` when the store has no fresh
   * view of the fleet (not connected yet, or degraded) and the budget decides on local counts.
   */
  allows(options: RetryBudgetOptions): boolean | undefined;
}

/** What a shared store gives each agent state it creates. */
export interface AgentSync {
  readonly budget: BudgetSync;
  /** Called once, when the agent's breaker is created: the sync that breaker reports to. */
  breaker(breaker: FleetControlledBreaker, options: CircuitBreakerOptions): BreakerSync;
}
