/**
 * Model results → A2A v1.0 ProtoJSON, field for field (nothing added, nothing defaulted): what a v1.0
 * agent would have written for the same objects. Used where an object has no wire form of its own —
 * events a resumed stream rebuilt from a snapshot, answers read from a v0.3 agent — and must be handed
 * on as v1.0 (the `a2a-resilient/a2a-js` transports). An object read from a v1.0 agent keeps its wire
 * form in `raw`; callers that can use it should.
 */
import type { Artifact, StreamEvent, Task, TaskStatus } from '../model.js';
import type { ListTasksResult, TaskPushNotificationConfig } from '../method-params.js';
import { opt } from '../opt.js';
import { messageToV1, partToV1, pushConfigToV1, stateToV1 } from './codec.js';

type Json = Record<string, unknown>;

function statusToV1(s: TaskStatus): Json {
  return { state: stateToV1(s.state), ...(s.message ? { message: messageToV1(s.message) } : {}), ...opt('timestamp', s.timestamp) };
}

function artifactToV1(a: Artifact): Json {
  return {
    artifactId: a.artifactId,
    ...opt('name', a.name),
    ...opt('description', a.description),
    parts: a.parts.map(partToV1),
    ...opt('extensions', a.extensions),
    ...opt('metadata', a.metadata),
  };
}

/** Model Task → v1.0 Task. */
export function taskToV1(t: Task): Json {
  return {
    id: t.id,
    contextId: t.contextId,
    status: statusToV1(t.status),
    ...opt('artifacts', t.artifacts?.map(artifactToV1)),
    ...opt('history', t.history?.map(messageToV1)),
    ...opt('metadata', t.metadata),
  };
}

/** Model stream item or send result → the v1.0 object itself (not wrapped in a `StreamResponse`). */
export function eventToV1(e: StreamEvent): Json {
  switch (e.kind) {
    case 'task':
      return taskToV1(e);
    case 'message':
      return messageToV1(e);
    case 'status-update':
      return { taskId: e.taskId, contextId: e.contextId, status: statusToV1(e.status), ...opt('metadata', e.metadata) };
    case 'artifact-update':
      return {
        taskId: e.taskId,
        contextId: e.contextId,
        artifact: artifactToV1(e.artifact),
        ...(e.append ? { append: true } : {}),
        ...(e.lastChunk ? { lastChunk: true } : {}),
        ...opt('metadata', e.metadata),
      };
  }
}

/** The `StreamResponse` member that carries each kind of item. */
export const V1_STREAM_MEMBER = { task: 'task', message: 'message', 'status-update': 'statusUpdate', 'artifact-update': 'artifactUpdate' } as const;

/** Model `listTasks` result → v1.0 `ListTasksResponse`. */
export function listTasksToV1(r: ListTasksResult, task: (t: Task) => Json = taskToV1): Json {
  return { tasks: r.tasks.map(task), ...opt('nextPageToken', r.nextPageToken), ...opt('pageSize', r.pageSize), ...opt('totalSize', r.totalSize) };
}

/** Model push config → v1.0 `TaskPushNotificationConfig`. */
export function taskPushConfigToV1(c: TaskPushNotificationConfig): Json {
  return pushConfigToV1(c.taskId, c.config);
}
