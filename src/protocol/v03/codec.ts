/**
 * The A2A v0.3 codecs. JSON-RPC v0.3 uses the `kind` shape; the v0.3 REST binding (`/v1/…`) uses the
 * v0.3 ProtoJSON shape for requests (`content`, `ROLE_USER`). Both accept either shape in responses.
 */
import { lazy, z } from '../../util/lazy-zod.js';
import type { ResolvedSendParams } from '../binding.js';
import { parseAgentCard } from '../card.js';
import { encodeSendParams, SAME_IN_EVERY_VERSION, SAME_STREAM_IN_EVERY_VERSION, type VersionCodec } from '../codec.js';
import type { Message, Part, StreamEvent } from '../model.js';
import type { PushNotificationConfig } from '../method-params.js';
import { opt } from '../opt.js';
import { checkWire, noMember, unexpected } from '../validate.js';
import { isObject, oneOf, WireType } from '../wire-check.js';
import { messageFromV03, pushConfigFromV03, v03Wire } from './decode.js';
import { V03TaskPushConfigSchema } from './schemas.js';
import { V03ArtifactUpdate, V03Message, V03StatusUpdate, V03Task } from './wire-types.js';

/** Which request shape a v0.3 codec writes. */
export type V03Style = 'jsonrpc' | 'proto';

/** Model Part → v0.3 Part in the given style. */
export function partToV03(p: Part, style: V03Style = 'jsonrpc'): Record<string, unknown> {
  const meta = opt('metadata', p.metadata);
  if (style === 'proto') {
    if (p.kind === 'text') return { text: p.text, ...meta };
    if (p.kind === 'data') return { data: { data: p.data }, ...meta };
    const f = p.file;
    return { file: { ...(f.bytes !== undefined ? { fileWithBytes: f.bytes } : opt('fileWithUri', f.uri)), ...opt('mimeType', f.mimeType) }, ...meta };
  }
  if (p.kind === 'text') return { kind: 'text', text: p.text, ...meta };
  if (p.kind === 'data') return { kind: 'data', data: p.data, ...meta };
  const f = p.file;
  return { kind: 'file', file: { ...opt('bytes', f.bytes), ...opt('uri', f.uri), ...opt('name', f.name), ...opt('mimeType', f.mimeType) }, ...meta };
}

/** Model Message → v0.3 Message in the given style. */
export function messageToV03(m: Message, style: V03Style = 'jsonrpc'): Record<string, unknown> {
  const parts = m.parts.map((p) => partToV03(p, style));
  const common = {
    messageId: m.messageId,
    ...opt('contextId', m.contextId),
    ...opt('taskId', m.taskId),
    ...opt('extensions', m.extensions),
    ...opt('metadata', m.metadata),
  };
  // The v0.3 proto Message has no reference_task_ids (v0.3 JSON-RPC and v1.0 do): a strict ProtoJSON
  // parser refuses an unknown field, so it is left out rather than risk the whole send.
  if (style === 'proto') return { ...common, role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT', content: parts };
  return { kind: 'message', ...common, ...opt('referenceTaskIds', m.referenceTaskIds), role: m.role, parts };
}

/** Model push-notification config → v0.3 `PushNotificationConfig` (JSON-RPC style). */
export function pushConfigToV03(c: PushNotificationConfig): Record<string, unknown> {
  const auth = c.authentication;
  return {
    url: c.url,
    ...opt('id', c.id),
    ...opt('token', c.token),
    ...(auth === undefined ? {} : { authentication: { schemes: auth.scheme === '' ? [] : [auth.scheme], ...opt('credentials', auth.credentials) } }),
  };
}

function sendParams(style: V03Style) {
  const pushField = style === 'proto' ? 'pushNotification' : 'pushNotificationConfig';
  return (p: ResolvedSendParams): Record<string, unknown> =>
    encodeSendParams(p, messageToV03(p.message, style), (c) => ({
      ...opt('blocking', c.blocking),
      ...(c.pushNotificationConfig === undefined ? {} : { [pushField]: pushConfigToV03(c.pushNotificationConfig) }),
    }));
}

const KINDS = ['task', 'message', 'status-update', 'artifact-update'] as const;
const isKind = oneOf(KINDS);

/** The `kind` of a v0.3 JSON-RPC object; the ProtoJSON shape has none. */
const Kind = new WireType(lazy(() => z.object({ kind: z.optional(z.enum(KINDS)) })), (v) => isObject(v) && (v.kind === undefined || isKind(v.kind)));

/** The ProtoJSON wrapper members, and the fields that tell an unwrapped task or message apart. */
const Envelope = new WireType(
  lazy(() => z.object({
    task: z.optional(z.unknown()),
    msg: z.optional(z.unknown()),
    message: z.optional(z.unknown()),
    statusUpdate: z.optional(z.unknown()),
    artifactUpdate: z.optional(z.unknown()),
    id: z.optional(z.unknown()),
    messageId: z.optional(z.unknown()),
  })),
  isObject,
);

/**
 * One v0.3 result or stream item → model: dispatches on `kind`, else on the ProtoJSON wrapper
 * (`task`/`msg`/`message`/`statusUpdate`/`artifactUpdate`), else on its shape. Each object is
 * validated once, by the schema of what it is.
 * @throws A2AClientError `invalid-response`.
 */
export function decodeV03Event(json: unknown, field = 'result'): StreamEvent {
  switch (checkWire(Kind, json, field).kind) {
    case 'task':
      return v03Wire.task(checkWire(V03Task, json, field));
    case 'message':
      return messageFromV03(checkWire(V03Message, json, field));
    case 'status-update':
      return v03Wire.statusUpdate(checkWire(V03StatusUpdate, json, field));
    case 'artifact-update':
      return v03Wire.artifactUpdate(checkWire(V03ArtifactUpdate, json, field));
    case undefined:
      break;
  }
  const e = checkWire(Envelope, json, field);
  if (e.task !== undefined) return v03Wire.task(checkWire(V03Task, e.task, `${field}.task`));
  if (e.msg !== undefined) return messageFromV03(checkWire(V03Message, e.msg, `${field}.msg`));
  if (e.statusUpdate !== undefined) return v03Wire.statusUpdate(checkWire(V03StatusUpdate, e.statusUpdate, `${field}.statusUpdate`));
  if (e.artifactUpdate !== undefined) return v03Wire.artifactUpdate(checkWire(V03ArtifactUpdate, e.artifactUpdate, `${field}.artifactUpdate`));
  if (e.id !== undefined) return v03Wire.task(checkWire(V03Task, json, field));
  if (e.message !== undefined) return messageFromV03(checkWire(V03Message, e.message, `${field}.message`));
  if (e.messageId !== undefined) return messageFromV03(checkWire(V03Message, json, field));
  return noMember(field);
}

function taskOnly(json: unknown) {
  const ev = decodeV03Event(json);
  return ev.kind === 'task' ? ev : unexpected('result.kind', ev.kind);
}

const PushList = lazy(() => z.union([z.array(z.unknown()), z.object({ configs: z.optional(z.array(z.unknown())) })]));

/** Builds a v0.3 codec writing requests in `style`. */
export function createV03Codec(style: V03Style): VersionCodec {
  const send = sendParams(style);
  return {
    version: '0.3',
    extensionsHeader: 'x-a2a-extensions',
    versionHeaders: {},
    rpcMethods: {
      sendMessage: 'message/send',
      sendStreamingMessage: 'message/stream',
      getTask: 'tasks/get',
      listTasks: undefined,
      cancelTask: 'tasks/cancel',
      subscribeToTask: 'tasks/resubscribe',
      createTaskPushNotificationConfig: 'tasks/pushNotificationConfig/set',
      getTaskPushNotificationConfig: 'tasks/pushNotificationConfig/get',
      listTaskPushNotificationConfig: 'tasks/pushNotificationConfig/list',
      deleteTaskPushNotificationConfig: 'tasks/pushNotificationConfig/delete',
      getExtendedAgentCard: 'agent/getAuthenticatedExtendedCard',
    },
    encode: {
      ...SAME_IN_EVERY_VERSION,
      sendMessage: send,
      getTask: (p) => ({ id: p.id, ...opt('historyLength', p.historyLength) }),
      listTasks: () => ({}),
      createTaskPushNotificationConfig: (p) =>
        style === 'proto'
          ? { name: `tasks/${p.taskId}${p.config.id === undefined ? '' : `/pushNotificationConfigs/${p.config.id}`}`, pushNotificationConfig: pushConfigToV03(p.config) }
          : { taskId: p.taskId, pushNotificationConfig: pushConfigToV03(p.config) },
      getTaskPushNotificationConfig: (p) => ({ id: p.taskId, ...opt('pushNotificationConfigId', p.configId) }),
      listTaskPushNotificationConfig: (p) => ({ id: p.taskId }),
      deleteTaskPushNotificationConfig: (p) => ({ id: p.taskId, pushNotificationConfigId: p.configId }),
    },
    encodeStream: { sendStreamingMessage: send, ...SAME_STREAM_IN_EVERY_VERSION },
    decode: {
      sendMessage: (json) => {
        const ev = decodeV03Event(json);
        return ev.kind === 'task' || ev.kind === 'message' ? ev : unexpected('result.kind', ev.kind);
      },
      getTask: taskOnly,
      cancelTask: taskOnly,
      listTasks: () => unexpected('result', undefined),
      createTaskPushNotificationConfig: (json) => pushConfigFromV03(checkWire(V03TaskPushConfigSchema, json, 'result')),
      getTaskPushNotificationConfig: (json) => pushConfigFromV03(checkWire(V03TaskPushConfigSchema, json, 'result')),
      listTaskPushNotificationConfig: (json) => {
        const r = checkWire(PushList, json, 'result');
        const items = Array.isArray(r) ? r : (r.configs ?? []);
        return items.map((c, i) => pushConfigFromV03(checkWire(V03TaskPushConfigSchema, c, `result.${i}`)));
      },
      deleteTaskPushNotificationConfig: () => undefined,
      getExtendedAgentCard: (json) => parseAgentCard(json),
    },
    decodeStreamEvent: (json) => decodeV03Event(json),
  };
}

/** v0.3 JSON-RPC codec (`kind` shape). */
export const v03Codec: VersionCodec = createV03Codec('jsonrpc');
/** v0.3 REST codec (ProtoJSON request shape). */
export const v03RestCodec: VersionCodec = createV03Codec('proto');
