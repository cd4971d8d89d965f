import type { RetryBudgetOptions } from './options.js';

/**
 * A per-agent retry budget: retries may be at most `ratio` × the requests of the last `windowMs`,
 * plus `minPerSecond` × the window in seconds. Shared by every client of the same agent.
 */
export class RetryBudget {
  readonly #requests: number[] = [];
  readonly #retries: number[] = [];

  /** Records the first attempt of a call (and forgets what fell out of the window). */
  recordRequest(windowMs = 60_000, now: number = performance.now()): void {
    prune(this.#requests, now - windowMs);
    this.#requests.push(now);
  }

  /**
   * Takes one retry from the budget when there is room (and records it); false when spent.
   */
  tryRetry(options: RetryBudgetOptions, now: number = performance.now()): boolean {
    prune(this.#requests, now - options.windowMs);
    prune(this.#retries, now - options.windowMs);
    const allowed = options.ratio * this.#requests.length + options.minPerSecond * (options.windowMs / 1000);
    if (this.#retries.length + 1 > allowed) return false;
    this.#retries.push(now);
    return true;
  }
}

function prune(times: number[], before: number): void {
  let drop = 0;
  while (drop < times.length && (times[drop] ?? 0) < before) drop++;
  if (drop > 0) times.splice(0, drop);
}

const budgets = new Map<string, RetryBudget>();

/** The process-wide budget of the agent at `agentKey` (its endpoint origin). */
export function budgetFor(agentKey: string): RetryBudget {
  let budget = budgets.get(agentKey);
  if (!budget) {
    budget = new RetryBudget();
    budgets.set(agentKey, budget);
  }
  return budget;
}
