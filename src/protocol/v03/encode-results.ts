/**
 * Model results → A2A v0.3 JSON-RPC objects (`kind` on each, lowercase states), field for field:
 * what a v0.3 JSON-RPC agent would have written for the same objects. Used where an object has no
 * v0.3 JSON-RPC form of its own — events a resumed stream rebuilt from a snapshot, answers read over
 * REST, gRPC or from a v1.0 agent — and must be handed on as v0.3 (the `a2a-resilient/a2a-js`
 * transports for `@a2a-js/sdk` 0.3).
 */
import { INTERRUPTED_STATES, TERMINAL_STATES, type Artifact, type StreamEvent, type Task, type TaskStatus } from '../model.js';
import type { TaskPushNotificationConfig } from '../method-params.js';
import { opt } from '../opt.js';
import { messageToV03, partToV03, pushConfigToV03 } from './codec.js';

type Json = Record<string, unknown>;

function statusToV03(s: TaskStatus): Json {
  return { state: s.state, ...(s.message ? { message: messageToV03(s.message) } : {}), ...opt('timestamp', s.timestamp) };
}

function artifactToV03(a: Artifact): Json {
  return {
    artifactId: a.artifactId,
    ...opt('name', a.name),
    ...opt('description', a.description),
    parts: a.parts.map((p) => partToV03(p)),
    ...opt('extensions', a.extensions),
    ...opt('metadata', a.metadata),
  };
}

/** Model Task → v0.3 Task. */
export function taskToV03(t: Task): Json {
  return {
    kind: 'task',
    id: t.id,
    contextId: t.contextId,
    status: statusToV03(t.status),
    ...opt('artifacts', t.artifacts?.map(artifactToV03)),
    ...opt('history', t.history?.map((m) => messageToV03(m))),
    ...opt('metadata', t.metadata),
  };
}

/**
 * Model stream item or send result → v0.3 object. A status update without `final` (read from a v1.0
 * agent, or rebuilt) is final when its state is terminal or interrupted, as a v0.3 agent marks it.
 */
export function eventToV03(e: StreamEvent): Json {
  switch (e.kind) {
    case 'task':
      return taskToV03(e);
    case 'message':
      return messageToV03(e);
    case 'status-update':
      return {
        kind: 'status-update',
        taskId: e.taskId,
        contextId: e.contextId,
        status: statusToV03(e.status),
        final: e.final ?? (TERMINAL_STATES.has(e.status.state) || INTERRUPTED_STATES.has(e.status.state)),
        ...opt('metadata', e.metadata),
      };
    case 'artifact-update':
      return {
        kind: 'artifact-update',
        taskId: e.taskId,
        contextId: e.contextId,
        artifact: artifactToV03(e.artifact),
        append: e.append ?? false,
        lastChunk: e.lastChunk ?? false,
        ...opt('metadata', e.metadata),
      };
  }
}

/** Model push config → v0.3 `TaskPushNotificationConfig`. */
export function taskPushConfigToV03(c: TaskPushNotificationConfig): Json {
  return { taskId: c.taskId, pushNotificationConfig: pushConfigToV03(c.config) };
}
