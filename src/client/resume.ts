import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { StreamEvent } from '../protocol/model.js';
import type { CallOptions } from './options.js';
import type { FollowOptions } from './task-calls.js';
import { callTimeouts, streams, withinDeadline, type TaskCallsDeps } from './task-calls.js';
import { callDeadlineName } from '../transport/deadline-name.js';

/**
 * The updates of an existing task in batches, for `A2AClient.resume`: its Task snapshot first, then
 * what changes, until a terminal or interrupted state. Where the card streams, the task is followed
 * with `subscribeToTask` (resumed after drops by the same machinery as a send's stream); where it does
 * not — or the agent refuses to subscribe before sending anything (a task already terminal is refused
 * by A2A servers, as is one whose live queue is gone) — by polling `getTask` with growing intervals.
 * Either way the stream's reconciliation (`StreamState`) decides what is new. One deadline
 * (`timeouts.totalMs`) over both.
 * @throws A2AClientError — as a stream's: TaskNotFound (kind `json-rpc` or `http`, `a2aName`
 * `TaskNotFound`) for an unknown task, `deadline-exceeded`, `aborted`, `idle-timeout`, …
 */
export async function* resumeBatches(deps: TaskCallsDeps, taskId: string, call: CallOptions, follow: FollowOptions = {}): AsyncGenerator<StreamEvent[], void, undefined> {
  const deadline = performance.now() + callTimeouts(deps, call).totalMs;
  const params = { id: taskId };
  if (streams(deps.card)) {
    let delivered = false;
    try {
      for await (const batch of deps.calls.stream('subscribeToTask', params, call, { ...follow, taskId })) {
        delivered = true;
        yield batch;
      }
      return;
    } catch (error) {
      // Refused before anything was delivered: the task itself (getTask) says where it stands.
      if (delivered || !isA2AClientError(error) || !deps.calls.policy(call).followsByPolling(error)) throw error;
    }
  }
  yield* deps.calls.stream('subscribeToTask', params, withinDeadline(call, deadline, callDeadlineName(deps.timeouts, call.timeouts)), { ...follow, taskId, poll: true });
}
