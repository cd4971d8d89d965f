/**
 * What happens to a send whose fate is unknown (it failed after the request left): looked up at the
 * agent (`send-lookup.ts`) — found, it is followed; absent, it is sent again with the same
 * `messageId`; unknown, its `ambiguous` error stands. The retry policy says when to look
 * (`RetryPolicy.looksUp`), how long to wait first, and whether an absent send is repeated.
 */
import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import type { Task } from '../protocol/model.js';
import type { CallScope } from '../transport/call-scope.js';
import { emitEvent, type EventSink } from './events.js';
import type { ResilienceEvent } from './event-types.js';
import type { RetryPolicy } from './retry-policy.js';
import type { StreamCall } from './resume-round.js';
import { lookUpSend, type LookupContext, type LostMessage, type SendFate } from './send-lookup.js';

/** A send the lookup found: the task it started, and the failure that hid it. */
export interface FoundSend {
  readonly found: Task;
  /** The send's failure (its `attempts` hold every attempt). */
  readonly error: A2AClientError;
}

/** A send that may be looked up after an ambiguous failure, and repeated when proven absent. */
export interface LostSendRun<T> {
  /** The agent, the send's method, the pipeline and the call's span. */
  call: StreamCall;
  onEvent?: EventSink | undefined;
  policy: RetryPolicy;
  /** The call's scope: its deadline and the caller's signal bound the waits and the lookup. */
  scope: CallScope;
  message: LostMessage;
  /** How to look (`undefined`: the agent cannot tell — v0.3 has no `ListTasks`). */
  lookup: LookupContext | undefined;
  /** Sends again (the same message) through the pipeline with at most `maxAttempts` attempts, charged to the budget as a retry. */
  resend(maxAttempts: number): Promise<T>;
}

/**
 * Settles the send that failed with `failure`: a failure that leaves its fate unknown is looked up
 * (after the policy's wait); found → the task; absent → sent again, as often as `maxAttempts`, the
 * deadline and the budget allow (a repeat that fails the same way is looked up again).
 * @throws A2AClientError — `failure` when it is not one to look up or the agent cannot tell (its
 * `attempts` then end with the lookup's own failure, when it failed); for a send proven absent that
 * may not be repeated, `failure` with `ambiguous: false`; a repeat's own final error; other errors unchanged.
 */
export async function afterLostSend<T>(r: LostSendRun<T>, failure: unknown): Promise<{ sent: T } | FoundSend> {
  const method = r.call.method;
  const earlier: A2AClientError[] = [];
  let error = failure;
  for (;;) {
    if (!isA2AClientError(error)) throw error;
    const attempts = error.attempts.length > 0 ? error.attempts : [error];
    const all = [...earlier, ...attempts];
    if (r.lookup === undefined || !r.policy.looksUp(error, method)) throw earlier.length > 0 ? error.with({ attempts: all }) : error;
    const started = performance.now();
    const fate = await settle(r, r.lookup, all.length);
    const event: ResilienceEvent = {
      type: 'send-lookup',
      agent: r.call.agent,
      method,
      messageId: r.message.messageId,
      outcome: fate.fate,
      ...(fate.fate === 'found' ? { taskId: fate.task.id } : {}),
      requests: fate.requests,
      elapsedMs: performance.now() - started,
      at: Date.now(),
    };
    emitEvent(r.onEvent, event);
    r.call.trace?.event(event);
    if (fate.fate === 'found') return { found: fate.task, error: error.with({ attempts: all }) };
    if (fate.fate === 'unknown') {
      const stop = r.scope.failure;
      const failed = fate.error === undefined ? all : [...all, fate.error.with({ method: fate.error.method ?? 'listTasks' })];
      // The caller who left is told so; the send's fate stays unknown.
      if (stop?.kind === 'aborted') throw stop.with({ agent: r.call.agent, method, ambiguous: true, attempts: failed });
      throw error.with({ attempts: failed });
    }
    const decision = r.policy.sendAbsent(error, { method, attempt: all.length });
    const left = r.policy.options.maxAttempts - all.length;
    if (!decision.retry || left <= 0) throw error.with({ ambiguous: false, retryable: true, attempts: all });
    earlier.push(...attempts);
    if (decision.delayMs > 0) {
      try {
        await r.scope.sleep(decision.delayMs);
      } catch {
        throw stopError(r, all);
      }
    }
    try {
      return { sent: await r.resend(left) };
    } catch (next) {
      error = next;
    }
  }
}

/** Waits the policy's delay, then looks the send up; the deadline or the caller cutting either makes it `unknown`. */
async function settle<T>(r: LostSendRun<T>, lookup: LookupContext, attempt: number): Promise<SendFate> {
  const delayMs = r.policy.lookupDelay(attempt);
  if (delayMs >= r.scope.timeLeft()) return { fate: 'unknown', requests: 0 };
  try {
    await r.scope.sleep(delayMs);
  } catch {
    return { fate: 'unknown', requests: 0 };
  }
  return lookUpSend(r.call, r.scope, r.message, lookup);
}

/** The error of a call stopped (deadline, caller) between a proven-absent send and its repeat. */
function stopError<T>(r: LostSendRun<T>, tried: A2AClientError[]): A2AClientError {
  const reason = r.scope.failure;
  const kind = reason?.kind === 'aborted' ? 'aborted' : 'deadline-exceeded';
  return new A2AClientError({ kind, message: reason?.message ?? 'The call deadline ran out before the send was repeated', cause: tried.at(-1), agent: r.call.agent, method: r.call.method, attempts: tried });
}
