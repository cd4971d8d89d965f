/**
 * HTTP+JSON (REST) binding of a mock. v1.0 routes: `/message:send`, `/message:stream`, `/tasks`,
 * `/tasks/{id}`, `/tasks/{id}:cancel`, `/tasks/{id}:subscribe` (GET and POST),
 * `/tasks/{id}/pushNotificationConfigs[/{configId}]`, `/extendedAgentCard`. v0.3: the same under `/v1`,
 * with `/v1/card` for the extended card and no `/tasks` list.
 */
import { HttpResponse } from 'msw';
import { z } from 'zod';
import { headersOf, type MockCore } from './core.js';
import { jsonContentType } from './respond.js';
import type { MockMethod } from './scenarios.js';
import { restErrorBody } from './wire-errors.js';

interface Route {
  method: MockMethod;
  taskId?: string;
  configId?: string;
}

/** Matches `verb path` (path relative to the agent's base URL, prefix removed) to a method. */
export function matchRoute(verb: string, path: string, v1: boolean): Route | 'bad-verb' | undefined {
  const is = (...verbs: string[]): boolean => verbs.includes(verb);
  const when = (ok: boolean, r: Route): Route | 'bad-verb' => (ok ? r : 'bad-verb');
  if (path === '/message:send') return when(is('POST'), { method: 'sendMessage' });
  if (path === '/message:stream') return when(is('POST'), { method: 'sendStreamingMessage' });
  if (path === (v1 ? '/extendedAgentCard' : '/card')) return when(is('GET'), { method: 'getExtendedAgentCard' });
  if (path === '/tasks' && v1) return when(is('GET'), { method: 'listTasks' });
  const m = /^\/tasks\/([^/:]+)(:cancel|:subscribe|\/pushNotificationConfigs(?:\/([^/]+))?)?$/.exec(path);
  if (!m) return undefined;
  const taskId = decodeURIComponent(m[1] ?? '');
  const tail = m[2];
  if (tail === undefined) return when(is('GET'), { method: 'getTask', taskId });
  if (tail === ':cancel') return when(is('POST'), { method: 'cancelTask', taskId });
  if (tail === ':subscribe') return when(is('GET', 'POST'), { method: 'subscribeToTask', taskId });
  const configId = m[3] === undefined ? undefined : decodeURIComponent(m[3]);
  if (configId === undefined) {
    if (is('POST')) return { method: 'createTaskPushNotificationConfig', taskId };
    return when(is('GET'), { method: 'listTaskPushNotificationConfig', taskId });
  }
  if (is('DELETE')) return { method: 'deleteTaskPushNotificationConfig', taskId, configId };
  return when(is('GET'), { method: 'getTaskPushNotificationConfig', taskId, configId });
}

const BodySchema = z.record(z.string(), z.unknown());

/** Answers one REST request whose path (below the base URL) is `path`. Never rejects. */
export async function handleRest(core: MockCore, request: Request, path: string): Promise<Response> {
  const v1 = core.version === '1.0';
  const fail = (code: number, message: string, status?: number): Response => {
    const e = restErrorBody(core.version, code, message);
    return new HttpResponse(JSON.stringify(e.body), {
      status: status ?? e.status,
      headers: { 'content-type': jsonContentType(core.version, core.binding) },
    });
  };
  const prefix = v1 ? '' : '/v1';
  if (!path.startsWith(`${prefix}/`)) return fail(-32601, `No route for ${path}`);
  const route = matchRoute(request.method, path.slice(prefix.length), v1);
  if (route === undefined) return fail(-32601, `No route for ${request.method} ${path}`);
  if (route === 'bad-verb') return fail(-32601, `Method ${request.method} not allowed on ${path}`, 405);
  const headers = headersOf(request.headers);
  const requested = headers['a2a-version'];
  if (v1 && (requested === undefined || !requested.trim().startsWith('1.'))) {
    return fail(-32009, `The requested A2A protocol version '${requested ?? '0.3'}' is not supported. Supported versions: 1.0`);
  }
  if (route.method === 'sendStreamingMessage' && !core.streaming) return fail(-32004, 'Streaming is not supported by this agent');
  let body: Record<string, unknown> = {};
  const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
  if (text.trim() !== '') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error: unknown) {
      void error;
      return fail(-32700, 'Request body is not valid JSON');
    }
    const parsed = BodySchema.safeParse(json);
    if (!parsed.success) return fail(-32600, 'Request body must be a JSON object');
    body = parsed.data;
  }
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const params = {
    ...query,
    ...body,
    // Push config routes carry the config's own `id` in the body; task routes address the task by `id`.
    ...(route.taskId === undefined ? {} : route.method.endsWith('PushNotificationConfig') || route.method.endsWith('Configs') ? { taskId: route.taskId } : { id: route.taskId }),
    ...(route.configId === undefined ? {} : { configId: route.configId }),
  };
  return core.run({ method: route.method, wireMethod: `${request.method} ${path}`, params, headers }, request.signal);
}
