import type { AgentCard } from '../protocol/model.js';
import { withSettings, type Timeouts } from '../transport/settings.js';
import type { AgentCalls } from './agent-calls.js';
import type { CallOptions } from './options.js';
import { namedDeadline } from '../transport/deadline-name.js';

/** What the calls on existing tasks (`resume`, `waitForTask`, `tasks`) use of their client. */
export interface TaskCallsDeps {
  /** The agent's name, on errors. */
  name: string;
  card: AgentCard;
  calls: AgentCalls;
  /** The client's timeouts with the defaults filled in. */
  timeouts: Readonly<Timeouts>;
}

/**
 * The call's timeouts over the client's.
 * @throws A2AClientError kind `unsupported` for a per-call timeout that is not a number ≥ 0.
 */
export function callTimeouts(deps: TaskCallsDeps, call: CallOptions): Readonly<Timeouts> {
  return call.timeouts === undefined ? deps.timeouts : withSettings('timeouts', deps.timeouts, call.timeouts);
}

/**
 * `call` with what is left of a deadline (`performance.now()` ms) as its total budget, still named
 * after the setting it came from (`name`, see `deadline-name.ts`).
 */
export function withinDeadline(call: CallOptions, deadline: number, name: string): CallOptions {
  return { ...call, timeouts: namedDeadline({ ...call.timeouts, totalMs: Math.max(0, deadline - performance.now()) }, name) };
}

/** Whether the agent's card says it streams (an absent flag counts as yes, as for sends). */
export function streams(card: AgentCard): boolean {
  return card.capabilities.streaming !== false;
}
