/**
 * The lookup of a send whose fate is unknown: did the agent start a task for this message? Asked of a
 * v1.0 agent with `ListTasks` (or `GetTask` for a message that continues a task), each request
 * through the agent's pipeline under the call's deadline, the first charged to the retry budget.
 */
import { isA2AClientError, type A2AClientError } from '../errors/a2a-client-error.js';
import type { UnaryMethods } from '../protocol/binding.js';
import type { Message, Task } from '../protocol/model.js';
import type { ListTasksParams } from '../protocol/method-params.js';
import type { CallScope } from '../transport/call-scope.js';
import { streamRound, throughPipeline, type StreamCall } from './resume-round.js';
import type { LookupContext, LostMessage } from './send-answers.js';

export type { LookupContext, LostMessage } from './send-answers.js';

/** Tasks per `ListTasks` page asked for: the most the spec allows. */
export const LOOKUP_PAGE_SIZE = 100;
/** Pages read at most while looking for the task (absence is only ever proven from the first). */
export const LOOKUP_MAX_PAGES = 5;
/**
 * How far before the send the time window of `ListTasks` (`statusTimestampAfter`) opens: room for the
 * agent's clock to be behind ours, so a task the send started is never filtered out.
 */
export const LOOKUP_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * What the lookup learned. `found`: a task carries the message in its history. `absent`: the agent
 * answered completely and no task does — the send never started one. `unknown`: it cannot tell
 * (`error`: the lookup's own failure, when it failed).
 */
export type SendFate =
  | { fate: 'found'; task: Task; requests: number }
  | { fate: 'absent'; requests: number }
  | { fate: 'unknown'; error?: A2AClientError | undefined; requests: number };

/**
 * Looks for the task `message` started. A message that continues a task: `GetTask`, found when its
 * history carries the `messageId`, absent when its history records the user's messages but not this one. A new message:
 * `ListTasks` of its context (when it has one) updated since shortly before the send
 * ({@link LOOKUP_CLOCK_SKEW_MS}), newest first, up to {@link LOOKUP_MAX_PAGES} pages; absent only when
 * the first page was the whole answer, every task in it carried a history with the user's messages,
 * and the agent was never seen answering a send without a task. Never throws for the agent's failures: they are `unknown`.
 */
export async function lookUpSend(call: StreamCall, scope: CallScope, message: LostMessage, ctx: LookupContext): Promise<SendFate> {
  let requests = 0;
  const counted = <M extends 'getTask' | 'listTasks'>(method: M, params: UnaryMethods[M]['params'], first: boolean): Promise<UnaryMethods[M]['result']> => {
    // The first request is charged to the retry budget as a retry (refused when it is spent).
    const round = first ? streamRound(Number.POSITIVE_INFINITY, true, false) : undefined;
    return throughPipeline(call, scope, method, true, (a) => {
      requests++;
      return ctx.requests.unary(method, params, a.scope, a.attempt);
    }, round);
  };
  try {
    if (message.taskId !== undefined) {
      const task = await counted('getTask', { id: message.taskId }, true);
      if (carries(task, message.messageId)) return { fate: 'found', task, requests };
      return recordsSends(task) ? { fate: 'absent', requests } : { fate: 'unknown', requests };
    }
    const since = new Date(ctx.sentAt - LOOKUP_CLOCK_SKEW_MS).toISOString();
    let params: ListTasksParams = { pageSize: LOOKUP_PAGE_SIZE, statusTimestampAfter: since, ...(message.contextId !== undefined ? { contextId: message.contextId } : {}) };
    let complete = false;
    let historied = true;
    for (let page = 1; page <= LOOKUP_MAX_PAGES; page++) {
      const listed = await counted('listTasks', params, page === 1);
      const task = listed.tasks.find((t) => carries(t, message.messageId));
      if (task !== undefined) return { fate: 'found', task, requests };
      const next = listed.nextPageToken;
      if (page === 1) {
        complete = next === undefined || next === '';
        historied = listed.tasks.every(recordsSends);
      }
      if (next === undefined || next === '' || next === params.pageToken) break;
      params = { ...params, pageToken: next };
    }
    return complete && historied && !ctx.answers.bareMessages ? { fate: 'absent', requests } : { fate: 'unknown', requests };
  } catch (error) {
    if (!isA2AClientError(error)) throw error;
    return { fate: 'unknown', error, requests };
  }
}

/**
 * The task's history holds the messages sent to it — at least one from the user — so a message
 * missing from it was not sent to it (a history of the agent's messages only proves nothing).
 */
function recordsSends(task: Task): boolean {
  return task.history?.some((m) => m.role === 'user') === true;
}

/** The task's history carries the message. */
function carries(task: Task, messageId: string): boolean {
  return task.history?.some((m: Message) => m.messageId === messageId) === true;
}
