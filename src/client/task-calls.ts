import type { AgentCard } from '../protocol/model.js';
import { withSettings, type Timeouts } from '../transport/settings.js';
import type { StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from '../protocol/binding.js';
import type { StreamEvent } from '../protocol/model.js';
import type { RetryPolicy } from '../resilience/retry-policy.js';
import type { CallOptions } from './options.js';
import { namedDeadline } from '../transport/deadline-name.js';

/** What a stream's caller knows of it beyond its parameters. */
export interface FollowOptions {
  /** The task followed, when known before the first event (a subscribe's id): abandoning the stream early can cancel it. */
  taskId?: string | undefined;
  /** True once the reader took the stream as complete (the event API's converter ended it): leaving then is not abandoning. */
  completed?: (() => boolean) | undefined;
  /** Follow the existing task `taskId` by polling `getTask` from the start, opening no stream (an agent that does not stream). */
  poll?: boolean | undefined;
}

/** The calls the task helpers make, as `AgentCalls` runs them (deadline, pipeline, span). */
export interface TaskCallsPort {
  /** One unary call. @throws A2AClientError once resilience gives up. */
  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], call: CallOptions): Promise<UnaryMethods[M]['result']>;
  /** One stream, resumed after drops, in batches. */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], call: CallOptions, follow?: FollowOptions): AsyncIterable<StreamEvent[]>;
  /** The retry policy of a call. */
  policy(call: CallOptions): RetryPolicy;
}

/** What the calls on existing tasks (`resume`, `waitForTask`, `tasks`) use of their client. */
export interface TaskCallsDeps {
  /** The agent's name, on errors. */
  name: string;
  card: AgentCard;
  calls: TaskCallsPort;
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
