/**
 * Error bodies as the official server writes them: JSON-RPC error objects, v1.0 REST `google.rpc.Status`,
 * v0.3 REST `{ code, message, data? }`, with the A2A code → HTTP status mapping.
 */
import type { ProtocolVersion } from '../src/protocol/model.js';

const REASONS: Readonly<Record<number, string>> = {
  [-32001]: 'TASK_NOT_FOUND',
  [-32002]: 'TASK_NOT_CANCELABLE',
  [-32003]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [-32004]: 'UNSUPPORTED_OPERATION',
  [-32005]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [-32006]: 'INVALID_AGENT_RESPONSE',
  [-32007]: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  [-32008]: 'EXTENSION_SUPPORT_REQUIRED',
  [-32009]: 'VERSION_NOT_SUPPORTED',
};

/** HTTP status for an A2A / JSON-RPC code on the REST binding. */
export function httpStatusFor(code: number): number {
  if (code === -32001 || code === -32601) return 404;
  if (code === -32006 || code === -32603) return 500;
  if (code <= -32001 && code >= -32009) return 400;
  if (code === -32602 || code === -32600 || code === -32700) return 400;
  return 500;
}

function statusName(code: number, http: number): string {
  if (http === 404) return 'NOT_FOUND';
  if (http === 500) return 'INTERNAL';
  if (code === -32005 || code === -32602 || code === -32600 || code === -32700) return 'INVALID_ARGUMENT';
  return 'FAILED_PRECONDITION';
}

/** The `ErrorInfo` detail for an A2A code, or undefined for other codes. */
export function errorInfoFor(code: number): Record<string, unknown> | undefined {
  const reason = REASONS[code];
  return reason ? { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' } : undefined;
}

/** A REST error response body + status for `code`. */
export function restErrorBody(version: ProtocolVersion, code: number, message: string, data?: unknown): { status: number; body: unknown } {
  const status = httpStatusFor(code);
  if (version === '0.3') return { status, body: { code, message, ...(data === undefined ? {} : { data }) } };
  const info = errorInfoFor(code);
  const extra = data === undefined ? [] : Array.isArray(data) ? data : [data];
  const details = [...(info ? [info] : []), ...extra];
  return { status, body: { error: { code: status, status: statusName(code, status), message, details } } };
}

/** A JSON-RPC error response object. */
export function rpcErrorBody(id: string | number | null, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}
