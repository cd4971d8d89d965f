/** Normalisation of validated v1.0 ProtoJSON objects into the model. Lossless: the wire object is kept in `raw`. */
import type {
  Artifact,
  Message,
  Part,
  Role,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '../model.js';
import { opt } from '../opt.js';
import type { V1Artifact, V1Message, V1Part, V1Task, V1TaskPushConfig, V1TaskStatus } from './schemas.js';

const STATES: Readonly<Record<string, TaskState>> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
};

/** v1.0 state name → model state (`TASK_STATE_UNSPECIFIED` → `unknown`). */
export function stateFromV1(state: string): TaskState {
  return STATES[state] ?? 'unknown';
}

/** v1.0 role → model role (unspecified reads as `agent`, the side that answers). */
export function roleFromV1(role: string): Role {
  return role === 'ROLE_USER' ? 'user' : 'agent';
}

/** v1.0 Part → model Part. `raw`/`url` become file parts; `filename`/`mediaType` are kept. */
export function partFromV1(p: V1Part): Part {
  const meta = p.metadata === undefined ? {} : { metadata: p.metadata };
  if (p.text !== undefined) return { kind: 'text', text: p.text, ...opt('mediaType', p.mediaType), ...meta };
  if (p.raw !== undefined || p.url !== undefined) {
    const file = { ...opt('bytes', p.raw), ...opt('uri', p.url), ...opt('name', p.filename), ...opt('mimeType', p.mediaType) };
    return { kind: 'file', file, ...meta };
  }
  return { kind: 'data', data: p.data, ...opt('mediaType', p.mediaType), ...meta };
}

/** v1.0 Message → model Message. */
export function messageFromV1(m: V1Message): Message {
  return {
    kind: 'message',
    messageId: m.messageId,
    role: roleFromV1(m.role),
    parts: m.parts.map(partFromV1),
    ...opt('contextId', m.contextId),
    ...opt('taskId', m.taskId),
    ...opt('referenceTaskIds', m.referenceTaskIds),
    ...opt('extensions', m.extensions),
    ...opt('metadata', m.metadata),
    raw: m,
  };
}

function statusFromV1(s: V1TaskStatus): TaskStatus {
  return {
    state: stateFromV1(s.state),
    ...(s.message === undefined ? {} : { message: messageFromV1(s.message) }),
    ...opt('timestamp', s.timestamp),
  };
}

function artifactFromV1(a: V1Artifact): Artifact {
  return {
    artifactId: a.artifactId,
    parts: a.parts.map(partFromV1),
    ...opt('name', a.name),
    ...opt('description', a.description),
    ...opt('extensions', a.extensions),
    ...opt('metadata', a.metadata),
  };
}

/** v1.0 Task → model Task. */
export function taskFromV1(t: V1Task): Task {
  return {
    kind: 'task',
    id: t.id,
    contextId: t.contextId,
    status: statusFromV1(t.status),
    ...(t.artifacts === undefined ? {} : { artifacts: t.artifacts.map(artifactFromV1) }),
    ...(t.history === undefined ? {} : { history: t.history.map(messageFromV1) }),
    ...opt('metadata', t.metadata),
    raw: t,
  };
}

/** v1.0 TaskStatusUpdateEvent → model (`final` is absent: v1.0 ends a stream by closing it). */
export function statusUpdateFromV1(u: {
  taskId: string;
  contextId: string;
  status: V1TaskStatus;
  metadata?: Record<string, unknown> | undefined;
}): TaskStatusUpdateEvent {
  return {
    kind: 'status-update',
    taskId: u.taskId,
    contextId: u.contextId,
    status: statusFromV1(u.status),
    ...opt('metadata', u.metadata),
    raw: u,
  };
}

/** v1.0 TaskArtifactUpdateEvent → model (omitted `append`/`lastChunk` read as false). */
export function artifactUpdateFromV1(u: {
  taskId: string;
  contextId: string;
  artifact: V1Artifact;
  append?: boolean | undefined;
  lastChunk?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
}): TaskArtifactUpdateEvent {
  return {
    kind: 'artifact-update',
    taskId: u.taskId,
    contextId: u.contextId,
    artifact: artifactFromV1(u.artifact),
    append: u.append ?? false,
    lastChunk: u.lastChunk ?? false,
    ...opt('metadata', u.metadata),
    raw: u,
  };
}

/** v1.0 TaskPushNotificationConfig → model. */
export function pushConfigFromV1(c: V1TaskPushConfig): TaskPushNotificationConfig {
  const auth = c.authentication;
  return {
    taskId: c.taskId,
    config: {
      url: c.url,
      ...opt('id', c.id),
      ...opt('token', c.token),
      ...(auth === undefined
        ? {}
        : { authentication: { schemes: auth.scheme === undefined ? [] : [auth.scheme], ...opt('credentials', auth.credentials) } }),
    },
    raw: c,
  };
}

