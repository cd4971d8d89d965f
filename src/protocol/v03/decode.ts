/**
 * Normalisation of validated v0.3 objects (JSON-RPC `kind` shape or the v0.3 REST ProtoJSON shape)
 * into the model. Lossless: the wire object is kept in `raw`.
 */
import type {
  Artifact,
  Message,
  Part,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent,
} from '../model.js';
import { opt } from '../opt.js';
import type { V03Artifact, V03Message, V03Part, V03Task, V03TaskStatus } from './schemas.js';

const PROTO_STATES: Readonly<Record<string, TaskState>> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELLED: 'canceled',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
};
const STATES: ReadonlySet<string> = new Set(['submitted', 'working', 'input-required', 'auth-required', 'completed', 'canceled', 'failed', 'rejected']);

/** v0.3 state (lowercase or ProtoJSON) → model state. */
export function stateFromV03(state: string): TaskState {
  if (STATES.has(state)) return PROTO_STATES[`TASK_STATE_${state.toUpperCase().replace('-', '_')}`] ?? 'unknown';
  return PROTO_STATES[state] ?? 'unknown';
}

/** v0.3 Part → model Part. */
export function partFromV03(p: V03Part): Part {
  const meta = opt('metadata', p.metadata);
  const kind = p.kind ?? (p.text !== undefined ? 'text' : p.file !== undefined ? 'file' : 'data');
  if (kind === 'text') return { kind: 'text', text: p.text ?? '', ...meta };
  if (kind === 'file') {
    const f = p.file ?? {};
    const file = {
      ...opt('bytes', f.bytes ?? f.fileWithBytes),
      ...opt('uri', f.uri ?? f.fileWithUri),
      ...opt('name', f.name),
      ...opt('mimeType', f.mimeType),
    };
    return { kind: 'file', file, ...meta };
  }
  // ProtoJSON wraps data parts as `{ data: { data: … } }`; the kind shape carries it directly.
  const data = p.kind === undefined && isRecord(p.data) && 'data' in p.data ? p.data.data : p.data;
  return { kind: 'data', data, ...meta };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** v0.3 Message → model Message. */
export function messageFromV03(m: V03Message): Message {
  return {
    kind: 'message',
    messageId: m.messageId,
    role: m.role === 'user' || m.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: (m.parts ?? m.content ?? []).map(partFromV03),
    ...opt('contextId', m.contextId || undefined),
    ...opt('taskId', m.taskId || undefined),
    ...opt('referenceTaskIds', m.referenceTaskIds),
    ...opt('extensions', m.extensions),
    ...opt('metadata', m.metadata),
    raw: m,
  };
}

function statusFromV03(s: V03TaskStatus): TaskStatus {
  const message = s.message ?? s.update;
  return {
    state: stateFromV03(s.state),
    ...(message === undefined ? {} : { message: messageFromV03(message) }),
    ...opt('timestamp', s.timestamp),
  };
}

function artifactFromV03(a: V03Artifact): Artifact {
  return {
    artifactId: a.artifactId,
    parts: a.parts.map(partFromV03),
    ...opt('name', a.name),
    ...opt('description', a.description),
    ...opt('extensions', a.extensions),
    ...opt('metadata', a.metadata),
  };
}

/** v0.3 Task → model Task. */
export function taskFromV03(t: V03Task): Task {
  return {
    kind: 'task',
    id: t.id,
    contextId: t.contextId,
    status: statusFromV03(t.status),
    ...(t.artifacts === undefined ? {} : { artifacts: t.artifacts.map(artifactFromV03) }),
    ...(t.history === undefined ? {} : { history: t.history.map(messageFromV03) }),
    ...opt('metadata', t.metadata),
    raw: t,
  };
}

/** v0.3 status update → model (keeps `final`). */
export function statusUpdateFromV03(u: {
  taskId: string;
  contextId: string;
  status: V03TaskStatus;
  final?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
}): TaskStatusUpdateEvent {
  return {
    kind: 'status-update',
    taskId: u.taskId,
    contextId: u.contextId,
    status: statusFromV03(u.status),
    final: u.final ?? false,
    ...opt('metadata', u.metadata),
    raw: u,
  };
}

/** v0.3 artifact update → model. */
export function artifactUpdateFromV03(u: {
  taskId: string;
  contextId: string;
  artifact: V03Artifact;
  append?: boolean | undefined;
  lastChunk?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
}): TaskArtifactUpdateEvent {
  return {
    kind: 'artifact-update',
    taskId: u.taskId,
    contextId: u.contextId,
    artifact: artifactFromV03(u.artifact),
    append: u.append ?? false,
    lastChunk: u.lastChunk ?? false,
    ...opt('metadata', u.metadata),
    raw: u,
  };
}

/** v0.3 TaskPushNotificationConfig → model (task id from `taskId` or the ProtoJSON `name`). */
export function pushConfigFromV03(c: {
  taskId?: string | undefined;
  name?: string | undefined;
  pushNotificationConfig: { id?: string | undefined; url: string; token?: string | undefined; authentication?: { schemes?: string[] | undefined; credentials?: string | undefined } | undefined };
}): TaskPushNotificationConfig {
  const p = c.pushNotificationConfig;
  const fromName = /^tasks\/([^/]+)(?:\/pushNotificationConfigs\/([^/]+))?$/.exec(c.name ?? '');
  const auth = p.authentication;
  return {
    taskId: c.taskId ?? fromName?.[1] ?? '',
    config: {
      url: p.url,
      ...opt('id', p.id ?? fromName?.[2]),
      ...opt('token', p.token),
      ...(auth === undefined ? {} : { authentication: { schemes: auth.schemes ?? [], ...opt('credentials', auth.credentials) } }),
    },
    raw: c,
  };
}
