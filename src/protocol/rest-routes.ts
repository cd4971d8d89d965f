/** REST (HTTP+JSON) routes per method. v0.3 routes carry the `/v1` prefix. */
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { EngineRequest } from '../transport/engine.js';
import type { StreamMethods, UnaryMethod, UnaryMethods } from './binding.js';
import type { ProtocolVersion } from './model.js';

/** One REST request: verb, path (with query), and whether the encoded params are the body. */
export interface RestRoute {
  verb: EngineRequest['method'];
  path: string;
  /** Send the encoded params as the JSON body. */
  body: boolean;
  /** Verb to try when the server answers 405 (SubscribeToTask: servers disagree on GET vs POST). */
  fallbackVerb?: EngineRequest['method'];
}

const enc = encodeURIComponent;

function query(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

/** Routes of unary methods; `undefined` = the version has no such route. */
export type UnaryRoutes = { [M in UnaryMethod]: ((p: UnaryMethods[M]['params'], encoded: unknown) => RestRoute) | undefined };

/** The unary routes of a version. */
export function unaryRoutes(version: ProtocolVersion): UnaryRoutes {
  const pre = version === '0.3' ? '/v1' : '';
  return {
    sendMessage: () => ({ verb: 'POST', path: `${pre}/message:send`, body: true }),
    getTask: (p) => ({ verb: 'GET', path: `${pre}/tasks/${enc(p.id)}${query({ historyLength: p.historyLength })}`, body: false }),
    listTasks:
      version === '0.3'
        ? undefined
        : (_p, encoded) => ({ verb: 'GET', path: `/tasks${query(isRecord(encoded) ? encoded : {})}`, body: false }),
    cancelTask: (p) => ({ verb: 'POST', path: `${pre}/tasks/${enc(p.id)}:cancel`, body: true }),
    createTaskPushNotificationConfig: (p) => ({ verb: 'POST', path: `${pre}/tasks/${enc(p.taskId)}/pushNotificationConfigs`, body: true }),
    getTaskPushNotificationConfig: (p) => ({
      verb: 'GET',
      path: `${pre}/tasks/${enc(p.taskId)}/pushNotificationConfigs${p.configId === undefined ? '' : `/${enc(p.configId)}`}`,
      body: false,
    }),
    listTaskPushNotificationConfig: (p) => ({ verb: 'GET', path: `${pre}/tasks/${enc(p.taskId)}/pushNotificationConfigs`, body: false }),
    deleteTaskPushNotificationConfig: (p) => ({
      verb: 'DELETE',
      path: `${pre}/tasks/${enc(p.taskId)}/pushNotificationConfigs/${enc(p.configId)}`,
      body: false,
    }),
    getExtendedAgentCard: () => ({ verb: 'GET', path: version === '0.3' ? '/v1/card' : '/extendedAgentCard', body: false }),
  };
}

/** Routes of streaming methods. SubscribeToTask: GET first on v1.0 (the proto), POST on v0.3; the other on 405. */
export type StreamRoutes = { [M in keyof StreamMethods]: (p: StreamMethods[M]) => RestRoute };

/** The streaming routes of a version. */
export function streamRoutes(version: ProtocolVersion): StreamRoutes {
  const pre = version === '0.3' ? '/v1' : '';
  const first = version === '0.3' ? 'POST' : 'GET';
  return {
    sendStreamingMessage: () => ({ verb: 'POST', path: `${pre}/message:stream`, body: true }),
    subscribeToTask: (p) => ({
      verb: first,
      path: `${pre}/tasks/${enc(p.id)}:subscribe`,
      body: false,
      fallbackVerb: first === 'GET' ? 'POST' : 'GET',
    }),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The `/{tenant}` path prefix of the v1.0 routes (`a2a.proto`: every HTTP rule has an
 * `additional_bindings` twin under `/{tenant}/…`; with `body: "*"` a field bound in the path is not
 * repeated in the body). The tenant is one path segment, percent-encoded (`/` → `%2F`). A tenant of
 * `.` or `..` cannot be sent: URL parsers resolve those segments away (also written `%2E`), so the
 * request would reach another route.
 * @throws A2AClientError kind `unsupported` (before anything is sent) for `.` and `..`.
 */
export function tenantPrefix(tenant: string | undefined): string {
  if (tenant === undefined) return '';
  if (tenant === '.' || tenant === '..') {
    throw new A2AClientError({
      kind: 'unsupported',
      message: `The interface's tenant "${tenant}" cannot be sent as a REST path segment`,
      phase: 'before-send',
    });
  }
  return `/${enc(tenant)}`;
}

/** Joins an interface URL and a route path without doubling slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
