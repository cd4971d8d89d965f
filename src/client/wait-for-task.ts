import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { INTERRUPTED_STATES, TERMINAL_STATES, type StreamEvent, type Task, type TaskState } from '../protocol/model.js';
import { CallScope } from '../transport/call-scope.js';
import type { CallOptions } from './options.js';
import { callTimeouts, streams, withinDeadline, type TaskCallsDeps } from './task-calls.js';
import { callDeadlineName } from '../transport/deadline-name.js';

/** Time kept for the last poll when the next interval would reach the deadline. */
const FINAL_POLL_MS = 100;

function settles(state: TaskState): boolean {
  return TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state);
}

/** The task state an update says, if any. */
function stateOf(event: StreamEvent): TaskState | undefined {
  if (event.kind === 'task' || event.kind === 'status-update') return event.status.state;
  return undefined;
}

/**
 * Waits for an existing task to settle, for `A2AClient.waitForTask`, and resolves with it as `getTask`
 * reads it (artifacts included). Where the card streams, it first follows the task with
 * `subscribeToTask` (resumed after drops) until an update says the task settled; where it does not,
 * or the subscription fails or gives up, it polls `getTask` on the client's poll schedule
 * (`RetryPolicy.pollDelay`: 25 ms doubling to 2 s), or after the agent's Retry-After when longer; when the
 * next interval would reach the deadline, one last poll goes out shortly before it. Each `getTask` is
 * retried by the agent's pipeline; one that still fails is polled again when the client's retry
 * policy says so (`RetryPolicy.roundFailed`, `retry.shouldRetry` included). One deadline
 * (`timeouts.totalMs`) and `call.signal` bound everything.
 * @throws A2AClientError kind `deadline-exceeded` (method `waitForTask`, the last state seen in the
 * message, the last failure as `cause`), `aborted`, or a `getTask` failure that polling cannot get past
 * (TaskNotFound, a refused credential, the retry budget, …).
 */
export async function waitForTask(deps: TaskCallsDeps, taskId: string, call: CallOptions): Promise<Task> {
  const deadlineName = callDeadlineName(deps.timeouts, call.timeouts);
  const scope = new CallScope({ deadline: performance.now() + callTimeouts(deps, call).totalMs, signal: call.signal, deadlineName });
  let lastState: TaskState | undefined;
  let last: A2AClientError | undefined;
  const stopped = (): A2AClientError => {
    const failure = scope.failure;
    if (failure?.kind === 'aborted') return failure.with({ agent: deps.name, method: 'waitForTask' });
    return new A2AClientError({
      kind: 'deadline-exceeded',
      message: `Task ${taskId} had not settled when the call deadline (${deadlineName}) ran out; last seen state: ${lastState ?? 'none'}`,
      cause: last,
      agent: deps.name,
      method: 'waitForTask',
      attempts: last ? [last] : [],
    });
  };
  try {
    if (streams(deps.card)) {
      try {
        // Waiting is not owning: a wait that ends (deadline, abort) never cancels the task, whatever `cancelOnAbort` says.
        const watch = { ...withinDeadline(call, scope.deadline, deadlineName), cancelOnAbort: false };
        follow: for await (const batch of deps.calls.stream('subscribeToTask', { id: taskId }, watch)) {
          for (const event of batch) {
            const state = stateOf(event);
            if (state === undefined) continue;
            lastState = state;
            if (settles(state)) break follow;
          }
        }
      } catch (error) {
        if (!isA2AClientError(error)) throw error;
        if (scope.aborted || error.kind === 'aborted' || error.kind === 'deadline-exceeded') {
          last = error;
          throw stopped();
        }
        // Refused (a terminal task), unknown, or given up on: getTask says which.
        last = error;
      }
    }
    const policy = deps.calls.policy(call);
    let polls = 0;
    let lastChance = false;
    for (;;) {
      if (scope.aborted || scope.timeLeft() <= 0) throw stopped();
      let failed: A2AClientError | undefined;
      let delayMs: number;
      polls++;
      try {
        const task = await deps.calls.unary('getTask', { id: taskId }, withinDeadline(call, scope.deadline, deadlineName));
        if (settles(task.status.state)) return task;
        lastState = task.status.state;
        delayMs = policy.pollDelay(polls - 1);
      } catch (error) {
        if (!isA2AClientError(error)) throw error;
        last = error;
        if (scope.aborted || error.kind === 'deadline-exceeded' || error.kind === 'aborted') throw stopped();
        const decision = policy.roundFailed(error, { method: 'getTask', next: 'poll', attempt: polls, quiet: polls - 1, timeLeft: scope.timeLeft() });
        if (!decision.retry) throw error.with({ agent: error.agent ?? deps.name });
        failed = error;
        delayMs = decision.delayMs;
      }
      const timeLeft = scope.timeLeft();
      let waitMs = delayMs;
      if (waitMs + FINAL_POLL_MS >= timeLeft) {
        // A delay the agent asked for is never cut short, and after the last chance nothing is left:
        // the deadline's error now, rather than sleeping into it.
        if (failed?.retryAfterMs !== undefined && failed.retryAfterMs + FINAL_POLL_MS >= timeLeft) throw failed.with({ agent: failed.agent ?? deps.name });
        if (lastChance) throw stopped();
        // One last poll shortly before the deadline, so a task that settles meanwhile is not missed.
        lastChance = true;
        waitMs = Math.max(0, timeLeft - FINAL_POLL_MS);
      }
      try {
        await scope.sleep(waitMs);
      } catch {
        throw stopped();
      }
    }
  } finally {
    scope.dispose();
  }
}
