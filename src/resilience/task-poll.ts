/**
 * The poll fallback of a resumed stream: `getTask` through the pipeline on the policy's poll
 * schedule, where resubscribe cannot follow the task or the agent does not stream.
 */
import { isA2AClientError, type A2AClientError } from '../errors/a2a-client-error.js';
import type { StreamEvent } from '../protocol/model.js';
import type { CallScope } from '../transport/call-scope.js';
import type { ResumeAttempts } from './resume-attempts.js';
import type { ResumableStreamOptions } from './resume-options.js';
import { afterFailedRound, fail, pause, pollIdleError, stopped, stoppedInRound, streamRound, throughPipeline } from './resume-round.js';
import { MIN_ROUND_MS, type RetryPolicy } from './retry-policy.js';
import type { StreamState } from './stream-state.js';

/**
 * Polls `getTask` through the pipeline until the task is terminal or interrupted, yielding only
 * what is new. The interval grows while nothing changes and starts again after news. A poll that
 * answers starts the stream's count of attempts again; failed polls count in it (`attempts`).
 * @throws A2AClientError — a fatal poll error, the last poll error once the attempts are spent,
 * `deadline-exceeded`, `aborted`, or `idle-timeout` (cause: the drop) after `maxIdleMs` without news.
 */
export async function* poll(o: ResumableStreamOptions, state: StreamState, scope: CallScope, policy: RetryPolicy, drop: A2AClientError, attempts: ResumeAttempts): AsyncGenerator<StreamEvent[], void, undefined> {
  const taskId = state.taskId;
  if (taskId === undefined) throw drop;
  const maxIdleMs = o.maxIdleMs ?? 60_000;
  let last = drop;
  let quiet = 0;
  let since = performance.now();
  for (;;) {
    const round = streamRound(attempts.left, false, false);
    let delayMs: number;
    try {
      const task = await throughPipeline(o, scope, 'getTask', true, (attempt) => o.requests.unary('getTask', { id: taskId }, attempt.scope, attempt.attempt), round);
      attempts.progress();
      const events = state.snapshot(task);
      if (events.length > 0) {
        quiet = 0;
        since = performance.now();
        yield events;
      } else quiet++;
      if (state.done) return;
      delayMs = policy.pollDelay(quiet);
    } catch (error) {
      if (scope.aborted) throw stoppedInRound(scope, round, attempts, last, o);
      if (!isA2AClientError(error)) throw error;
      quiet++;
      ({ last, delayMs } = afterFailedRound(error, round, attempts, drop, { method: 'getTask', next: 'poll', attempt: quiet, quiet }, o, policy, scope));
    }
    const idleLeft = maxIdleMs - (performance.now() - since);
    if (idleLeft <= 0) throw fail(pollIdleError(maxIdleMs, drop, last), o);
    // The poll schedule (or a delay asked for), never past the idle limit.
    delayMs = Math.min(delayMs, Math.max(MIN_ROUND_MS, idleLeft));
    if (delayMs >= scope.timeLeft()) throw stopped(scope, last, o, true);
    await pause(delayMs, scope, last, o);
  }
}
