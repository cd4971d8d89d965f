/** The A2A v1.0 codec: ProtoJSON encoding of requests and validated normalisation of responses. */
import type { ResolvedSendParams } from '../binding.js';
import { parseAgentCard } from '../card.js';
import { encodeSendParams, SAME_IN_EVERY_VERSION, SAME_STREAM_IN_EVERY_VERSION, type VersionCodec } from '../codec.js';
import type { Message, Part, StreamEvent, TaskState } from '../model.js';
import type { PushNotificationConfig } from '../method-params.js';
import { opt } from '../opt.js';
import { checkWire, noMember } from '../validate.js';
import { messageFromV1, pushConfigFromV1, v1Wire } from './decode.js';
import { V1ListPushConfigsResponseSchema, V1ListTasksResponseSchema, V1TaskPushConfigSchema } from './schemas.js';
import { V1SendMessageResponse, V1StreamResponse, V1Task } from './wire-types.js';

/** Model Part → v1.0 Part. */
export function partToV1(p: Part): Record<string, unknown> {
  const meta = opt('metadata', p.metadata);
  if (p.kind === 'text') return { text: p.text, ...opt('mediaType', p.mediaType), ...meta };
  if (p.kind === 'data') return { data: p.data, ...opt('mediaType', p.mediaType), ...meta };
  return {
    ...(p.file.bytes !== undefined ? { raw: p.file.bytes } : opt('url', p.file.uri)),
    ...opt('filename', p.file.name),
    ...opt('mediaType', p.file.mimeType),
    ...meta,
  };
}

/** Model Message → v1.0 Message. */
export function messageToV1(m: Message): Record<string, unknown> {
  return {
    messageId: m.messageId,
    role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: m.parts.map(partToV1),
    ...opt('contextId', m.contextId),
    ...opt('taskId', m.taskId),
    ...opt('referenceTaskIds', m.referenceTaskIds),
    ...opt('extensions', m.extensions),
    ...opt('metadata', m.metadata),
  };
}

/** Model state → v1.0 state name. */
export function stateToV1(state: TaskState): string {
  return state === 'unknown' ? 'TASK_STATE_UNSPECIFIED' : `TASK_STATE_${state.toUpperCase().replace('-', '_')}`;
}

/** Model push-notification config of a task → v1.0 `TaskPushNotificationConfig`. */
export function pushConfigToV1(taskId: string, c: PushNotificationConfig): Record<string, unknown> {
  const auth = c.authentication;
  return {
    taskId,
    url: c.url,
    ...opt('id', c.id),
    ...opt('token', c.token),
    // ProtoJSON leaves an empty string out.
    ...(auth === undefined ? {} : { authentication: { ...opt('scheme', auth.scheme || undefined), ...opt('credentials', auth.credentials) } }),
  };
}

/** `SendMessageRequest` from resolved send params. */
export function sendParamsToV1(p: ResolvedSendParams): Record<string, unknown> {
  return encodeSendParams(p, messageToV1(p.message), (c) => ({
    ...(c.blocking === false ? { returnImmediately: true } : {}),
    ...(c.pushNotificationConfig === undefined ? {} : { taskPushNotificationConfig: pushConfigToV1('', c.pushNotificationConfig) }),
  }));
}

/** One v1.0 `StreamResponse` → model event. @throws A2AClientError `invalid-response`. */
export function decodeV1StreamEvent(json: unknown, field = 'result'): StreamEvent {
  const r = checkWire(V1StreamResponse, json, field);
  if (r.task) return v1Wire.task(r.task);
  if (r.message) return messageFromV1(r.message);
  if (r.statusUpdate) return v1Wire.statusUpdate(r.statusUpdate);
  if (r.artifactUpdate) return v1Wire.artifactUpdate(r.artifactUpdate);
  // The schema's refinement guarantees one member; this line only satisfies the compiler.
  return noMember('result');
}

/** The A2A v1.0 codec. */
export const v1Codec: VersionCodec = {
  version: '1.0',
  extensionsHeader: 'a2a-extensions',
  versionHeaders: { 'a2a-version': '1.0' },
  rpcMethods: {
    sendMessage: 'SendMessage',
    sendStreamingMessage: 'SendStreamingMessage',
    getTask: 'GetTask',
    listTasks: 'ListTasks',
    cancelTask: 'CancelTask',
    subscribeToTask: 'SubscribeToTask',
    createTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
    getTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
    listTaskPushNotificationConfig: 'ListTaskPushNotificationConfigs',
    deleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
    getExtendedAgentCard: 'GetExtendedAgentCard',
  },
  encode: {
    ...SAME_IN_EVERY_VERSION,
    sendMessage: sendParamsToV1,
    getTask: (p) => ({ id: p.id, ...opt('historyLength', p.historyLength) }),
    listTasks: (p) => ({
      ...opt('contextId', p.contextId),
      ...(p.status === undefined ? {} : { status: stateToV1(p.status) }),
      ...opt('pageSize', p.pageSize),
      ...opt('pageToken', p.pageToken),
      ...opt('historyLength', p.historyLength),
      ...opt('statusTimestampAfter', p.statusTimestampAfter),
      ...opt('includeArtifacts', p.includeArtifacts),
    }),
    createTaskPushNotificationConfig: (p) => pushConfigToV1(p.taskId, p.config),
    getTaskPushNotificationConfig: (p) => ({ taskId: p.taskId, ...opt('id', p.configId) }),
    listTaskPushNotificationConfig: (p) => ({ taskId: p.taskId }),
    deleteTaskPushNotificationConfig: (p) => ({ taskId: p.taskId, id: p.configId }),
  },
  encodeStream: { sendStreamingMessage: sendParamsToV1, ...SAME_STREAM_IN_EVERY_VERSION },
  decode: {
    sendMessage: (json) => {
      const r = checkWire(V1SendMessageResponse, json, 'result');
      if (r.task) return v1Wire.task(r.task);
      if (r.message) return messageFromV1(r.message);
      return noMember('result');
    },
    getTask: (json) => v1Wire.task(checkWire(V1Task, json, 'result')),
    cancelTask: (json) => v1Wire.task(checkWire(V1Task, json, 'result')),
    listTasks: (json) => {
      const r = checkWire(V1ListTasksResponseSchema, json, 'result');
      return {
        tasks: (r.tasks ?? []).map(v1Wire.task),
        ...(r.nextPageToken ? { nextPageToken: r.nextPageToken } : {}),
        ...opt('pageSize', r.pageSize),
        ...opt('totalSize', r.totalSize),
      };
    },
    createTaskPushNotificationConfig: (json) => pushConfigFromV1(checkWire(V1TaskPushConfigSchema, json, 'result')),
    getTaskPushNotificationConfig: (json) => pushConfigFromV1(checkWire(V1TaskPushConfigSchema, json, 'result')),
    listTaskPushNotificationConfig: (json) =>
      (checkWire(V1ListPushConfigsResponseSchema, json, 'result').configs ?? []).map(pushConfigFromV1),
    deleteTaskPushNotificationConfig: () => undefined,
    getExtendedAgentCard: (json) => parseAgentCard(json),
  },
  decodeStreamEvent: (json) => decodeV1StreamEvent(json),
};
