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
  TaskState,
  TaskStatus,
} from '../model.js';
import type { TaskPushNotificationConfig } from '../method-params.js';
import { opt } from '../opt.js';
import { modelMessage, wireDecoders } from '../wire-decode.js';
import type { V1Message, V1Part, V1TaskPushConfig, V1TaskStatus } from './schemas.js';

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
  return modelMessage(m, m.messageId, roleFromV1(m.role), m.parts.map(partFromV1), false);
}

function statusFromV1(s: V1TaskStatus): TaskStatus {
  const out: TaskStatus = { state: stateFromV1(s.state) };
  if (s.message !== undefined) out.message = messageFromV1(s.message);
  if (s.timestamp !== undefined) out.timestamp = s.timestamp;
  return out;
}

/** v1.0 Task, status update and artifact update → model (see `wireDecoders`). */
export const v1Wire = wireDecoders<V1Part, V1Message, V1TaskStatus>({ part: partFromV1, message: messageFromV1, status: statusFromV1, final: false });

/** v1.0 TaskPushNotificationConfig → model. */
export function pushConfigFromV1(c: V1TaskPushConfig): TaskPushNotificationConfig {
  const auth = c.authentication;
  return {
    taskId: c.taskId,
    config: {
      url: c.url,
      ...opt('id', c.id),
      ...opt('token', c.token),
      // ProtoJSON omits an empty string: a missing scheme is `''`.
      ...(auth === undefined ? {} : { authentication: { scheme: auth.scheme ?? auth.schemes?.[0] ?? '', ...opt('credentials', auth.credentials) } }),
    },
    raw: c,
  };
}

