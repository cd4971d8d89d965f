/**
 * `@a2a-js/sdk` 1.x requests → this SDK's parameters. Messages go through the SDK's own ProtoJSON
 * encoder and then this SDK's v1.0 decoder, so they are validated once, at this boundary.
 */
import type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTasksRequest,
  SendMessageRequest,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type {
  CancelTaskParams,
  CreatePushConfigParams,
  DeletePushConfigParams,
  GetPushConfigParams,
  GetTaskParams,
  ListTasksParams,
  MessageInput,
  PushNotificationConfig,
  SendMessageConfiguration,
  SendMessageParams,
} from '../../protocol/method-params.js';
import { stateFromV1, messageFromV1 } from '../../protocol/v1/decode.js';
import { V1Message } from '../../protocol/v1/wire-types.js';
import { checkWire } from '../../protocol/validate.js';
import { opt } from '../../protocol/opt.js';
import type { SdkV1 } from './sdk.js';

/** A non-empty string, else undefined (ProtoJSON's unset string is `''`). */
function set(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function pushConfig(c: TaskPushNotificationConfig): PushNotificationConfig {
  const auth = c.authentication;
  return {
    url: c.url,
    ...opt('id', set(c.id)),
    ...opt('token', set(c.token)),
    ...(auth === undefined ? {} : { authentication: { scheme: auth.scheme, ...opt('credentials', set(auth.credentials)) } }),
  };
}

/**
 * A `SendMessageRequest` → send parameters.
 * @throws A2AClientError kind `invalid-response` (field `message…`) for a message the v1.0 schema refuses.
 */
export function sendParams(sdk: SdkV1, p: SendMessageRequest): SendMessageParams {
  const { kind: _kind, raw: _raw, ...message } = messageFromV1(checkWire(V1Message, sdk.root.Message.toJSON(p.message ?? sdk.root.Message.fromJSON({})), 'message'));
  const c = p.configuration;
  const configuration: SendMessageConfiguration = {};
  if (c !== undefined) {
    if (c.acceptedOutputModes.length > 0) configuration.acceptedOutputModes = c.acceptedOutputModes;
    if (c.historyLength !== undefined) configuration.historyLength = c.historyLength;
    if (c.returnImmediately) configuration.blocking = false;
    if (c.taskPushNotificationConfig !== undefined) configuration.pushNotificationConfig = pushConfig(c.taskPushNotificationConfig);
  }
  const input: MessageInput = message;
  return {
    message: input,
    ...(Object.keys(configuration).length > 0 ? { configuration } : {}),
    ...opt('metadata', p.metadata),
  };
}

/** `GetTaskRequest` → parameters. */
export function getTaskParams(p: GetTaskRequest): GetTaskParams {
  return { id: p.id, ...opt('historyLength', p.historyLength) };
}

/** `CancelTaskRequest` → parameters. */
export function cancelTaskParams(p: CancelTaskRequest): CancelTaskParams {
  return { id: p.id, ...opt('metadata', p.metadata) };
}

/** `ListTasksRequest` → parameters (`TASK_STATE_UNSPECIFIED` and empty strings are unset). */
export function listTasksParams(sdk: SdkV1, p: ListTasksRequest): ListTasksParams {
  const state = p.status === sdk.root.TaskState.TASK_STATE_UNSPECIFIED ? undefined : stateFromV1(sdk.root.taskStateToJSON(p.status));
  return {
    ...opt('contextId', set(p.contextId)),
    ...opt('status', state),
    ...opt('pageSize', p.pageSize),
    ...opt('pageToken', set(p.pageToken)),
    ...opt('historyLength', p.historyLength),
    ...opt('statusTimestampAfter', p.statusTimestampAfter),
    ...opt('includeArtifacts', p.includeArtifacts),
  };
}

/** `TaskPushNotificationConfig` (create) → parameters. */
export function createPushParams(p: TaskPushNotificationConfig): CreatePushConfigParams {
  return { taskId: p.taskId, config: pushConfig(p) };
}

/** `Get…`/`DeleteTaskPushNotificationConfigRequest` → parameters. */
export function pushConfigIds(p: GetTaskPushNotificationConfigRequest | DeleteTaskPushNotificationConfigRequest): GetPushConfigParams & DeletePushConfigParams {
  return { taskId: p.taskId, configId: p.id };
}
