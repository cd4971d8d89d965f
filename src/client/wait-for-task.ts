import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { INTERRUPTED_STATES, TERMINAL_STATES, type StreamEvent, type Task, type TaskState } from '../protocol/model.js';
import { CallScope } from '../transport/call-scope.js';
import type { CallOptions } from './options.js';
import { callTimeouts, streams, withinDeadline, type TaskCallsDeps } from './task-calls.js';
import { callDeadlineName } from '../transport/deadline-name.js';

/** The first wait between two polls of `getTask`. */
export const FIRST_POLL_MS = 25;
/**
 * The longest wait between two polls: the interval doubles from {@link FIRST_POLL_MS} while the task
 * has not settled and stays here (a settled task is seen within 2 s; a task that runs for an hour
 * costs under 2 000 polls). A longer Retry-After from the agent is waited out instead.
 */
export const MAX_POLL_MS = 2_000;
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
 * Whether polling goes on after a `getTask` that failed once its own retries were spent: a failure
 * that may pass (an open breaker is waited out) and whose requested delay fits before the deadline.
 * The verdicts of the retry budget and the bulkhead end the wait.
 */
function worthPollingAgain(error: A2AClientError, timeLeft: number): boolean {
  switch (error.kind) {
    case 'circuit-open':
      return error.retryAfterMs !== undefined && error.retryAfterMs < timeLeft;
    case 'budget-exhausted':
    case 'bulkhead-rejected':
    case 'deadline-exceeded':
    case 'aborted':
      return false;
    default:
      return error.retryable && (error.retryAfterMs ?? 0) < timeLeft;
  }
}

/**
 * Waits for an existing task to settle, for `A2AClient.waitForTask`, and resolves with it as `getTask`
 * reads it (artifacts included). Where the card streams, it first follows the task with
 * `subscribeToTask` (resumed after drops) until an update says the task settled; where it does not,
 * or the subscription fails or gives up, it polls `getTask`: after {@link FIRST_POLL_MS}, doubling to
 * {@link MAX_POLL_MS}, or after the agent's Retry-After when longer; when the next interval would reach
 * the deadline, one last poll goes out shortly before it. Each `getTask` is retried by
 * the agent's pipeline; one that still fails with a retryable error is polled again. One deadline
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
    let delayMs = FIRST_POLL_MS;
    let lastChance = false;
    for (;;) {
      if (scope.aborted || scope.timeLeft() <= 0) throw stopped();
      let failed: A2AClientError | undefined;
      try {
        const task = await deps.calls.unary('getTask', { id: taskId }, withinDeadline(call, scope.deadline, deadlineName));
        if (settles(task.status.state)) return task;
        lastState = task.status.state;
      } catch (error) {
        if (!isA2AClientError(error)) throw error;
        last = error;
        if (scope.aborted || error.kind === 'deadline-exceeded' || error.kind === 'aborted') throw stopped();
        if (!worthPollingAgain(error, scope.timeLeft())) throw error.with({ agent: error.agent ?? deps.name });
        failed = error;
      }
      const timeLeft = scope.timeLeft();
      let waitMs = Math.max(delayMs, failed?.retryAfterMs ?? 0);
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
      delayMs = Math.min(MAX_POLL_MS, delayMs * 2);
    }
  } finally {
    scope.dispose();
  }
}
