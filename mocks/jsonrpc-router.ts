/**
 * JSON-RPC binding of a mock: envelope parsing (−32700 / −32600), method names per version
 * (−32601 for unknown ones), the v1.0 `A2A-Version` header rule of the official server.
 */
import { HttpResponse } from 'msw';
import type { ProtocolVersion } from '../src/protocol/model.js';
import { headersOf, type MockCore } from './core.js';
import { parseEnvelope } from './request.js';
import type { MockMethod } from './scenarios.js';
import { V1_METHODS } from './v1-methods.js';
import { errorInfoFor, rpcErrorBody } from './wire-errors.js';


const V03: Readonly<Record<string, MockMethod>> = {
  'message/send': 'sendMessage',
  'message/stream': 'sendStreamingMessage',
  'tasks/get': 'getTask',
  'tasks/cancel': 'cancelTask',
  'tasks/resubscribe': 'subscribeToTask',
  'tasks/pushNotificationConfig/set': 'createTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/get': 'getTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/list': 'listTaskPushNotificationConfig',
  'tasks/pushNotificationConfig/delete': 'deleteTaskPushNotificationConfig',
  'agent/getAuthenticatedExtendedCard': 'getExtendedAgentCard',
};

/** The JSON-RPC method name table of a version. */
export function methodTable(version: ProtocolVersion): Readonly<Record<string, MockMethod>> {
  return version === '1.0' ? V1_METHODS : V03;
}

const rpcJson = (body: unknown): Response =>
  new HttpResponse(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });

/** Answers one JSON-RPC POST. Never rejects. */
export async function handleJsonRpc(core: MockCore, request: Request): Promise<Response> {
  const parsed = parseEnvelope(await request.text());
  if (!parsed.ok) return rpcJson(rpcErrorBody(parsed.id, parsed.code, parsed.code === -32700 ? 'Parse error' : 'Invalid Request'));
  const { env } = parsed;
  const id = env.id ?? null;
  const headers = headersOf(request.headers);
  const requested = headers['a2a-version'];
  // The official server treats a request without A2A-Version as v0.3, so a v1.0 method name is unknown.
  const speaks: ProtocolVersion = core.version === '1.0' && requested === undefined ? '0.3' : core.version;
  if (core.version === '1.0' && requested !== undefined && !requested.trim().startsWith('1.')) {
    const info = errorInfoFor(-32009);
    return rpcJson(rpcErrorBody(id, -32009, `The requested A2A protocol version '${requested}' is not supported.`, info ? [info] : undefined));
  }
  const method = speaks === core.version ? methodTable(core.version)[env.method] : undefined;
  if (method === undefined) return rpcJson(rpcErrorBody(id, -32601, 'Method not found', { method: env.method }));
  if (method === 'sendStreamingMessage' && !core.streaming) {
    return rpcJson(rpcErrorBody(id, -32004, 'Streaming is not supported by this agent'));
  }
  return core.run({ method, wireMethod: env.method, params: env.params, headers, rpcId: id }, request.signal);
}
