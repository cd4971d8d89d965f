/**
 * The resume rounds of a stream after a drop: a wait, then a resubscribe through the agent's pipeline
 * (retried inside it), again after each round that fails, until one opens, the agent says to poll
 * instead, or the stream is closed meanwhile. Each round is reported (`resubscribe` event, span).
 */
import type { A2AClientError } from '../errors/a2a-client-error.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { CallScope } from '../transport/call-scope.js';
import { emitEvent } from './events.js';
import type { ResilienceEvent } from './event-types.js';
import type { ResumeAttempts } from './resume-attempts.js';
import { closeQuietly, type OpenedSource, type ResumableStreamOptions } from './resume-options.js';
import { afterFailedRound, fail, openSource, pause, stopped, stoppedInRound, streamRound } from './resume-round.js';
import type { RetryPolicy } from './retry-policy.js';

/**
 * The wait before resuming after the live source failed with `error` (a drop, an idle gap, a
 * retryable error frame), `resumes` rounds after the last news, as the policy says (the stream's
 * deadline is checked before the wait).
 * @throws A2AClientError — `error`, as the stream's, when the policy says not to resume.
 */
export function resumeDelay(policy: RetryPolicy, error: A2AClientError, resumes: number, o: ResumableStreamOptions): number {
  const decision = policy.roundFailed(error, { method: 'subscribeToTask', next: 'resubscribe', attempt: resumes + 1, timeLeft: Infinity });
  if (!decision.retry) throw fail(error, o);
  return decision.delayMs;
}

/** What the rounds work with: the stream's options, scope, policy and attempts, and the task. */
export interface ResubscribeInit {
  o: ResumableStreamOptions;
  scope: CallScope;
  policy: RetryPolicy;
  attempts: ResumeAttempts;
  taskId: string;
  /** True once the stream was closed (its reader left): the rounds stop. */
  closed: () => boolean;
}

/**
 * How the rounds ended, with the rounds run since the last news (`resumes`) and the last drop:
 * a source opened, the task is to be polled (the agent does not support resubscribing), or the stream
 * was closed meanwhile (nothing is left open).
 */
export type Resubscribed = { resumes: number; lastDrop: A2AClientError } & ({ outcome: 'opened'; opened: OpenedSource } | { outcome: 'poll' } | { outcome: 'closed' });

/**
 * Runs rounds from `resumes` (rounds already run since the last news), the first after `firstDelayMs`.
 * @throws A2AClientError — the stream's end: the deadline or the caller's abort (with the last drop),
 * or the last failure once the attempts are spent.
 */
export async function resubscribeRounds(init: ResubscribeInit, firstDelayMs: number, lastDropAtStart: A2AClientError, resumesAtStart: number): Promise<Resubscribed> {
  const { o, scope, policy, attempts, taskId } = init;
  let delayMs = firstDelayMs;
  let lastDrop = lastDropAtStart;
  let resumes = resumesAtStart;
  for (;;) {
    resumes++;
    if (delayMs >= scope.timeLeft()) throw stopped(scope, lastDrop, o, true);
    const event: ResilienceEvent = { type: 'resubscribe', agent: o.agent, method: o.method, taskId, attempt: resumes, delayMs, reason: lastDrop.kind, at: Date.now() };
    emitEvent(o.onEvent, event);
    o.trace?.event(event);
    await pause(delayMs, scope, lastDrop, o);
    if (init.closed()) return { outcome: 'closed', resumes, lastDrop };
    let opened: OpenedSource;
    const round = streamRound(attempts.left, true, true);
    try {
      opened = await openSource(o, scope, 'subscribeToTask', true, (source, attempt) => o.requests.stream('subscribeToTask', { id: taskId }, source, attempt), round);
    } catch (error) {
      if (scope.aborted) throw stoppedInRound(scope, round, attempts, lastDrop, o);
      if (!isA2AClientError(error)) throw error;
      if (policy.followsByPolling(error)) return { outcome: 'poll', resumes, lastDrop };
      const next = { method: 'subscribeToTask', next: 'resubscribe', attempt: resumes + 1 } as const;
      ({ last: lastDrop, delayMs } = afterFailedRound(error, round, attempts, lastDrop, next, o, policy, scope));
      continue;
    }
    // The attempts of the round that failed before one opened the stream; that one counts when its stream fails.
    attempts.failed(round.tries - 1, round.errors);
    if (init.closed()) {
      closeQuietly(opened.iterator);
      return { outcome: 'closed', resumes, lastDrop };
    }
    attempts.newSource();
    return { outcome: 'opened', opened, resumes, lastDrop };
  }
}
