/**
 * Normalisation of validated v0.3 objects (JSON-RPC `kind` shape or the v0.3 REST ProtoJSON shape)
 * into the model. Lossless: the wire object, as received (unknown fields included), is kept in `raw`.
 * Artifacts, tasks and updates use the shared decoders of `wire-decode.ts`.
 */
import type {
  FilePart,
  Message,
  Part,
  TaskState,
  TaskStatus,
} from '../model.js';
import type { TaskPushNotificationConfig } from '../method-params.js';
import { opt } from '../opt.js';
import { isObject } from '../wire-check.js';
import { modelMessage, wireDecoders } from '../wire-decode.js';
import type { V03Message, V03Part, V03TaskStatus } from './schemas.js';

/** v0.3 state names, lowercase (JSON-RPC) and ProtoJSON (REST), → model state. */
const STATES: ReadonlyMap<string, TaskState> = new Map<string, TaskState>([
  ['submitted', 'submitted'],
  ['working', 'working'],
  ['input-required', 'input-required'],
  ['auth-required', 'auth-required'],
  ['completed', 'completed'],
  ['canceled', 'canceled'],
  ['failed', 'failed'],
  ['rejected', 'rejected'],
  ['TASK_STATE_SUBMITTED', 'submitted'],
  ['TASK_STATE_WORKING', 'working'],
  ['TASK_STATE_COMPLETED', 'completed'],
  ['TASK_STATE_FAILED', 'failed'],
  ['TASK_STATE_CANCELLED', 'canceled'],
  ['TASK_STATE_CANCELED', 'canceled'],
  ['TASK_STATE_INPUT_REQUIRED', 'input-required'],
  ['TASK_STATE_REJECTED', 'rejected'],
  ['TASK_STATE_AUTH_REQUIRED', 'auth-required'],
]);

/** v0.3 state (lowercase or ProtoJSON) → model state (`unknown`, `TASK_STATE_UNSPECIFIED` → `unknown`). */
export function stateFromV03(state: string): TaskState {
  return STATES.get(state) ?? 'unknown';
}

/** v0.3 Part → model Part. */
export function partFromV03(p: V03Part): Part {
  let out: Part;
  const kind = p.kind ?? (p.text !== undefined ? 'text' : p.file !== undefined ? 'file' : 'data');
  if (kind === 'text') {
    out = { kind: 'text', text: p.text ?? '' };
  } else if (kind === 'file') {
    const f = p.file;
    const file: FilePart['file'] = {};
    const bytes = f?.bytes ?? f?.fileWithBytes;
    const uri = f?.uri ?? f?.fileWithUri;
    if (bytes !== undefined) file.bytes = bytes;
    if (uri !== undefined) file.uri = uri;
    if (f?.name !== undefined) file.name = f.name;
    if (f?.mimeType !== undefined) file.mimeType = f.mimeType;
    out = { kind: 'file', file };
  } else {
    // ProtoJSON wraps data parts as `{ data: { data: … } }`; the kind shape carries it directly.
    out = { kind: 'data', data: p.kind === undefined && isObject(p.data) && 'data' in p.data ? p.data.data : p.data };
  }
  if (p.metadata !== undefined) out.metadata = p.metadata;
  return out;
}

/** v0.3 Message → model Message (`raw` is the wire object as received; empty ids read as absent). */
export function messageFromV03(m: V03Message): Message {
  const role = m.role === 'user' || m.role === 'ROLE_USER' ? 'user' : 'agent';
  return modelMessage(m, m.messageId, role, (m.parts ?? m.content ?? []).map(partFromV03), true);
}

function statusFromV03(s: V03TaskStatus): TaskStatus {
  const out: TaskStatus = { state: stateFromV03(s.state) };
  const message = s.message ?? s.update;
  if (message !== undefined) out.message = messageFromV03(message);
  if (s.timestamp !== undefined) out.timestamp = s.timestamp;
  return out;
}

/** v0.3 Task, status update and artifact update → model (see `wireDecoders`). */
export const v03Wire = wireDecoders<V03Part, V03Message, V03TaskStatus>({ part: partFromV03, message: messageFromV03, status: statusFromV03, final: true });

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
      ...(auth === undefined ? {} : { authentication: { scheme: auth.schemes?.[0] ?? '', ...opt('credentials', auth.credentials) } }),
    },
    raw: c,
  };
}
