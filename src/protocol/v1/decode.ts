/**
 * Normalisation of validated v1.0 ProtoJSON objects into the model. Lossless: the wire object, as
 * received (unknown fields included), is kept in `raw`. Artifacts, tasks and updates use the shared
 * decoders of `wire-decode.ts`.
 */
import type {
  FilePart,
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
import { type WireArtifactUpdate, type WireStatusUpdate, wireDecoders } from '../wire-decode.js';
import type { V1Message, V1Part, V1Task, V1TaskPushConfig, V1TaskStatus } from './schemas.js';

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
  let out: Part;
  if (p.text !== undefined) {
    out = { kind: 'text', text: p.text };
    if (p.mediaType !== undefined) out.mediaType = p.mediaType;
  } else if (p.raw !== undefined || p.url !== undefined) {
    const file: FilePart['file'] = {};
    if (p.raw !== undefined) file.bytes = p.raw;
    if (p.url !== undefined) file.uri = p.url;
    if (p.filename !== undefined) file.name = p.filename;
    if (p.mediaType !== undefined) file.mimeType = p.mediaType;
    out = { kind: 'file', file };
  } else {
    out = { kind: 'data', data: p.data };
    if (p.mediaType !== undefined) out.mediaType = p.mediaType;
  }
  if (p.metadata !== undefined) out.metadata = p.metadata;
  return out;
}

/** v1.0 Message → model Message (`raw` is the wire object as received). */
export function messageFromV1(m: V1Message): Message {
  const out: Message = { kind: 'message', messageId: m.messageId, role: roleFromV1(m.role), parts: m.parts.map(partFromV1) };
  if (m.contextId !== undefined) out.contextId = m.contextId;
  if (m.taskId !== undefined) out.taskId = m.taskId;
  if (m.referenceTaskIds !== undefined) out.referenceTaskIds = m.referenceTaskIds;
  if (m.extensions !== undefined) out.extensions = m.extensions;
  if (m.metadata !== undefined) out.metadata = m.metadata;
  out.raw = m;
  return out;
}

function statusFromV1(s: V1TaskStatus): TaskStatus {
  const out: TaskStatus = { state: stateFromV1(s.state) };
  if (s.message !== undefined) out.message = messageFromV1(s.message);
  if (s.timestamp !== undefined) out.timestamp = s.timestamp;
  return out;
}

const shared = wireDecoders<V1Part, V1Message, V1TaskStatus>({ part: partFromV1, message: messageFromV1, status: statusFromV1, final: false });

/** v1.0 Task → model Task (`raw` is the wire object as received). */
export const taskFromV1: (t: V1Task) => Task = shared.task;

/** v1.0 TaskStatusUpdateEvent → model (`final` is absent: v1.0 ends a stream by closing it). */
export const statusUpdateFromV1: (u: WireStatusUpdate<V1TaskStatus>) => TaskStatusUpdateEvent = shared.statusUpdate;

/** v1.0 TaskArtifactUpdateEvent → model (omitted `append`/`lastChunk` read as false). */
export const artifactUpdateFromV1: (u: WireArtifactUpdate<V1Part>) => TaskArtifactUpdateEvent = shared.artifactUpdate;

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

