/**
 * The request message (ProtoJSON) of each method on each version's gRPC service, built from what
 * the version codecs already encode: v1.0 requests are the JSON-RPC params plus `tenant` (the proto
 * is the source of both); v0.3 requests name resources (`tasks/{id}`, `…/pushNotificationConfigs/{id}`)
 * and use the v0.3 ProtoJSON message shape of the v0.3 REST codec. Pure data, no peer needed.
 */
import type { ResolvedSendParams, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from '../binding.js';
import type { AnyMethod, VersionCodec } from '../codec.js';
import type { ProtocolVersion } from '../model.js';
import { opt } from '../opt.js';
import { v03RestCodec } from '../v03/codec.js';
import { v1Codec } from '../v1/codec.js';

/** A version's gRPC method names and request builders. */
export interface GrpcRequests {
  /** The codec that decodes the answers (ProtoJSON of this version). */
  readonly codec: VersionCodec;
  /** RPC name in the service; `undefined`: this version has no such method (kind `unsupported`). */
  readonly rpc: Readonly<Record<AnyMethod, string | undefined>>;
  /** The request message for a unary method. */
  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params']): unknown;
  /** The request message for a streaming method. */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M]): unknown;
}

function withTenant(encoded: unknown, tenant: string | undefined): unknown {
  return tenant === undefined || typeof encoded !== 'object' || encoded === null ? encoded : { ...encoded, tenant };
}

/** v1.0 (`lf.a2a.v1.A2AService`): the JSON-RPC method names and params are the proto's. */
function v1Requests(tenant: string | undefined): GrpcRequests {
  return {
    codec: v1Codec,
    rpc: v1Codec.rpcMethods,
    unary: (method, params) => withTenant((v1Codec.encode[method] as (p: typeof params) => unknown)(params), tenant),
    stream: (method, params) => withTenant((v1Codec.encodeStream[method] as (p: typeof params) => unknown)(params), tenant),
  };
}

const task = (id: string): string => `tasks/${id}`;
const config = (taskId: string, id: string | undefined): string => `${task(taskId)}/pushNotificationConfigs${id === undefined ? '' : `/${id}`}`;

type V03Builders = { [M in UnaryMethod]: (p: UnaryMethods[M]['params']) => unknown };

/** v0.3 (`a2a.v1.A2AService`) request messages by method. */
const V03: V03Builders = {
  sendMessage: (p: ResolvedSendParams) => v03RestCodec.encode.sendMessage(p),
  getTask: (p) => ({ name: task(p.id), ...opt('historyLength', p.historyLength) }),
  listTasks: () => ({}),
  cancelTask: (p) => ({ name: task(p.id) }),
  createTaskPushNotificationConfig: (p) => ({
    parent: task(p.taskId),
    configId: p.config.id ?? '',
    config: v03RestCodec.encode.createTaskPushNotificationConfig(p),
  }),
  getTaskPushNotificationConfig: (p) => ({ name: config(p.taskId, p.configId) }),
  listTaskPushNotificationConfig: (p) => ({ parent: task(p.taskId) }),
  deleteTaskPushNotificationConfig: (p) => ({ name: config(p.taskId, p.configId) }),
  getExtendedAgentCard: () => ({}),
};

const V03_RPC: Readonly<Record<AnyMethod, string | undefined>> = {
  sendMessage: 'SendMessage',
  sendStreamingMessage: 'SendStreamingMessage',
  getTask: 'GetTask',
  listTasks: undefined,
  cancelTask: 'CancelTask',
  subscribeToTask: 'TaskSubscription',
  createTaskPushNotificationConfig: 'CreateTaskPushNotificationConfig',
  getTaskPushNotificationConfig: 'GetTaskPushNotificationConfig',
  listTaskPushNotificationConfig: 'ListTaskPushNotificationConfig',
  deleteTaskPushNotificationConfig: 'DeleteTaskPushNotificationConfig',
  getExtendedAgentCard: 'GetAgentCard',
};

const v03Requests: GrpcRequests = {
  codec: v03RestCodec,
  rpc: V03_RPC,
  unary: (method, params) => (V03[method] as (p: typeof params) => unknown)(params),
  stream: (method, params) =>
    method === 'subscribeToTask' ? { name: task((params as StreamMethods['subscribeToTask']).id) } : v03RestCodec.encode.sendMessage(params as ResolvedSendParams),
};

/** The request builders of a version; `tenant` (v1.0 only) goes into every request message. */
export function grpcRequests(version: ProtocolVersion, tenant?: string): GrpcRequests {
  return version === '1.0' ? v1Requests(tenant) : v03Requests;
}
