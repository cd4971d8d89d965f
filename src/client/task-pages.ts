import { A2AClientError } from '../errors/a2a-client-error.js';
import type { Task } from '../protocol/model.js';
import type { ListTasksParams } from '../protocol/method-params.js';
import type { TaskCallsPort } from './task-calls.js';
import type { CallOptions } from './options.js';

/**
 * Every task `listTasks` lists, page after page, for `A2AClient.tasks`. Each page is its own call
 * (its own deadline from `call.timeouts`, its own retries): the time a caller spends between pages is
 * not the agent's, so no deadline spans the whole iteration — end it with `call.signal` (e.g.
 * `AbortSignal.timeout(ms)`), or by leaving the loop. `pageSize` and the filters are sent with every
 * page; iteration starts at `params.pageToken` when given and ends at a page without `nextPageToken`.
 * @throws A2AClientError — a page's error after its retries (kind `unsupported` on v0.3, which has no
 * listTasks); kind `invalid-response` (field `nextPageToken`) when the agent hands out a page token
 * it handed out before, which would loop forever (that page's tasks are yielded first).
 */
export async function* taskPages(calls: TaskCallsPort, agent: string, params: ListTasksParams, call: CallOptions): AsyncGenerator<Task, void, undefined> {
  const used = new Set<string>();
  let token = params.pageToken;
  if (token !== undefined && token !== '') used.add(token);
  for (let page = 1; ; page++) {
    const result = await calls.unary('listTasks', token === undefined ? params : { ...params, pageToken: token }, call);
    for (const task of result.tasks) yield task;
    const next = result.nextPageToken;
    if (next === undefined || next === '') return;
    if (used.has(next)) {
      throw new A2AClientError({
        kind: 'invalid-response',
        message: `listTasks handed out a page token it had handed out before (page ${page}): following it would loop`,
        agent,
        method: 'listTasks',
        field: 'nextPageToken',
      });
    }
    used.add(next);
    token = next;
  }
}
