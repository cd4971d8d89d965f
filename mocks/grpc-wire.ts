/**
 * Request and answer shapes of a gRPC mock: the RPC names of each version's service, the decoded
 * request (ProtoJSON) as the params the scenarios read (v0.3 names resources — `tasks/{id}`,
 * `…/pushNotificationConfigs/{id}` — so the ids are added next to them, as the REST router adds path
 * ids), and the built-in `wire` answers in each service's message shape.
 */
import { z } from 'zod';
import type { ProtocolVersion } from '../src/protocol/model.js';
import type { MockMethod } from './scenarios.js';
import { V1_METHODS } from './v1-methods.js';
import type { WireObject } from './wire-v1.js';


const V03: Readonly<Record<string, MockMethod>> = {
  SendMessage: 'sendMessage',
  SendStreamingMessage: 'sendStreamingMessage',
  GetTask: 'getTask',
  CancelTask: 'cancelTask',
  TaskSubscription: 'subscribeToTask',
  CreateTaskPushNotificationConfig: 'createTaskPushNotificationConfig',
  GetTaskPushNotificationConfig: 'getTaskPushNotificationConfig',
  ListTaskPushNotificationConfig: 'listTaskPushNotificationConfig',
  DeleteTaskPushNotificationConfig: 'deleteTaskPushNotificationConfig',
  GetAgentCard: 'getExtendedAgentCard',
};

/** The mock method of an RPC of a version's service, or undefined for an RPC the mock does not serve. */
export function grpcMethodOf(version: ProtocolVersion, rpc: string): MockMethod | undefined {
  return (version === '1.0' ? V1_METHODS : V03)[rpc];
}

const Named = z.looseObject({
  name: z.string().optional(),
  parent: z.string().optional(),
  configId: z.string().optional(),
  config: z.looseObject({ pushNotificationConfig: z.looseObject({ id: z.string().optional() }).optional() }).optional(),
});
const RESOURCE = /^tasks\/([^/]+)(?:\/pushNotificationConfigs(?:\/([^/]+))?)?$/;

/**
 * The params scenarios see for a decoded request. v1.0 requests are already the JSON-RPC params;
 * v0.3 ones gain `taskId` (and `id` for task methods, `configId` for config methods) from the
 * resource names, and a created config is unwrapped to `pushNotificationConfig`.
 */
export function grpcParams(version: ProtocolVersion, method: MockMethod, request: unknown): unknown {
  if (version === '1.0') return request;
  const r = Named.safeParse(request ?? {});
  if (!r.success) return request;
  const m = RESOURCE.exec(r.data.name ?? r.data.parent ?? '');
  if (!m) return request;
  const taskId = decodeURIComponent(m[1] ?? '');
  const configId = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
  const out: Record<string, unknown> = { ...r.data, taskId };
  if (!method.includes('PushNotification')) out['id'] = taskId;
  if (configId !== undefined) out['configId'] = configId;
  if (method === 'createTaskPushNotificationConfig') {
    const given = r.data.config?.pushNotificationConfig ?? {};
    const id = r.data.configId !== undefined && r.data.configId !== '' ? r.data.configId : given.id;
    out['pushNotificationConfig'] = { ...given, ...(id === undefined ? {} : { id }) };
    delete out['config'];
    delete out['configId'];
  }
  return out;
}

const PushWire = z.looseObject({ taskId: z.string(), pushNotificationConfig: z.looseObject({ id: z.string().optional() }) });

/** A built-in push config answer (`{ taskId, pushNotificationConfig }`) as the v0.3 proto message `{ name, pushNotificationConfig }`. */
function v03Push(body: unknown): unknown {
  const p = PushWire.safeParse(body);
  if (!p.success) return body;
  const { taskId, pushNotificationConfig } = p.data;
  return { name: `tasks/${taskId}/pushNotificationConfigs/${pushNotificationConfig.id ?? ''}`, pushNotificationConfig };
}

/** A `wire` answer as the method's response message (ProtoJSON); v1.0 bodies are already that. */
export function grpcWireBody(version: ProtocolVersion, method: MockMethod, body: unknown): WireObject {
  if (body === null || body === undefined) return {};
  if (version === '1.0' || typeof body !== 'object') return body as WireObject;
  if (method === 'listTaskPushNotificationConfig') {
    const list = Array.isArray(body) ? body : z.looseObject({ configs: z.array(z.unknown()) }).safeParse(body).data?.configs ?? [];
    return { configs: list.map(v03Push) };
  }
  if (method === 'createTaskPushNotificationConfig' || method === 'getTaskPushNotificationConfig') return v03Push(body) as WireObject;
  return body as WireObject;
}
