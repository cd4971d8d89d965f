/**
 * The gRPC form of a mock's error outcomes, as a gRPC agent would send them: the status code the
 * A2A spec (§10, 1.0.1 mapping) gives an A2A / JSON-RPC error or google.rpc.Code gives an HTTP status,
 * a `google.rpc.Status` for `grpc-status-details-bin` (ErrorInfo with the A2A reason, the caller's
 * google.rpc details, RetryInfo for a delay), and text trailers: the HTTP error's own headers and the
 * gRFC A6 `grpc-retry-pushback-ms` (a delay; `0` for "retry", `-1` for "do not retry"). Pure data.
 */
import { z } from 'zod';
import type { ProtocolVersion } from '../src/protocol/model.js';
import { a2aNameForCode } from '../src/protocol/error-codes.js';
import { errorInfoFor } from './wire-errors.js';

/** A status to end a gRPC call with. */
export interface GrpcStatusOut {
  code: number;
  message: string;
  /** Text trailers (lower-case names). */
  trailers: Record<string, string>;
  /** ProtoJSON `google.rpc.Status` for `grpc-status-details-bin`; absent: no details trailer. */
  details?: { code: number; message: string; details: Array<Record<string, unknown>> };
}

/** gRPC codes by name (grpc/doc/statuscodes.md), the ones the mock uses. */
export const GRPC_CODE = Object.freeze({ CANCELLED: 1, UNKNOWN: 2, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, ABORTED: 10, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, FAILED_PRECONDITION: 9, UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14, UNAUTHENTICATED: 16 });

/** The inverse of google/rpc/code.proto's HTTP mapping (so the client's `status` is the mock's), and 502 → UNAVAILABLE. */
const FOR_HTTP: Readonly<Record<number, number>> = {
  400: GRPC_CODE.INVALID_ARGUMENT,
  401: GRPC_CODE.UNAUTHENTICATED,
  403: GRPC_CODE.PERMISSION_DENIED,
  404: GRPC_CODE.NOT_FOUND,
  409: GRPC_CODE.ABORTED,
  429: GRPC_CODE.RESOURCE_EXHAUSTED,
  499: GRPC_CODE.CANCELLED,
  500: GRPC_CODE.INTERNAL,
  501: GRPC_CODE.UNIMPLEMENTED,
  502: GRPC_CODE.UNAVAILABLE,
  503: GRPC_CODE.UNAVAILABLE,
  504: GRPC_CODE.DEADLINE_EXCEEDED,
};

/** The gRPC code for an HTTP status: the table, else FAILED_PRECONDITION for a 4xx, UNKNOWN otherwise. */
export function grpcCodeForHttp(status: number): number {
  return FOR_HTTP[status] ?? (status >= 400 && status < 500 ? GRPC_CODE.FAILED_PRECONDITION : GRPC_CODE.UNKNOWN);
}

/** The gRPC code for an A2A / JSON-RPC error code (A2A 1.0.1: not found, invalid argument, internal, the rest failed precondition). */
export function grpcCodeForRpc(code: number): number {
  if (code === -32001) return GRPC_CODE.NOT_FOUND;
  if (code === -32005 || code === -32700 || code === -32600 || code === -32602) return GRPC_CODE.INVALID_ARGUMENT;
  if (code === -32006 || code === -32603) return GRPC_CODE.INTERNAL;
  if (code === -32601) return GRPC_CODE.UNIMPLEMENTED;
  if (code <= -32001 && code >= -32099) return GRPC_CODE.FAILED_PRECONDITION;
  return GRPC_CODE.UNKNOWN;
}

/** google.rpc detail types `grpc-status-details-bin` can carry here (others have no descriptor and are dropped). */
const KNOWN_DETAILS = new Set(['type.googleapis.com/google.rpc.ErrorInfo', 'type.googleapis.com/google.rpc.RetryInfo', 'type.googleapis.com/google.rpc.BadRequest']);
const Detail = z.looseObject({ '@type': z.string() });
const DataHints = z.looseObject({
  retryable: z.boolean().optional().catch(undefined),
  retryAfter: z.number().nonnegative().optional().catch(undefined),
  retry_after_ms: z.number().nonnegative().optional().catch(undefined),
});
const ProblemHints = z.looseObject({
  title: z.string().optional().catch(undefined),
  detail: z.string().optional().catch(undefined),
  is_retriable: z.boolean().optional().catch(undefined),
  retry_after_ms: z.number().nonnegative().optional().catch(undefined),
  retry_after_seconds: z.number().nonnegative().optional().catch(undefined),
});

const retryInfo = (ms: number): Record<string, unknown> => ({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${(ms / 1000).toFixed(3)}s` });

/** Turns a delay / yes / no into the pushback trailer and (for a delay) a RetryInfo detail. */
function hint(delayMs: number | undefined, retryable: boolean | undefined, trailers: Record<string, string>, details: Array<Record<string, unknown>>): void {
  if (delayMs !== undefined) {
    trailers['grpc-retry-pushback-ms'] = String(Math.round(delayMs));
    if (!details.some((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo')) details.push(retryInfo(delayMs));
  } else if (retryable !== undefined) {
    trailers['grpc-retry-pushback-ms'] = retryable ? '0' : '-1';
  }
}

/**
 * A JSON-RPC error outcome as a status. `data` that is a google.rpc detail (or a list of them) goes
 * into the details; `retryable` / `retryAfter` / `retry_after_ms` hints become the pushback trailer;
 * other data has no gRPC form. v0.3 messages start with the error's name (`TaskNotFoundError: …`), as
 * v0.3 servers write them.
 */
export function grpcStatusForRpc(version: ProtocolVersion, code: number, message: string, data?: unknown): GrpcStatusOut {
  const grpcCode = grpcCodeForRpc(code);
  const given = (Array.isArray(data) ? data : [data]).flatMap((d) => {
    const parsed = Detail.safeParse(d);
    return parsed.success && KNOWN_DETAILS.has(parsed.data['@type']) ? [parsed.data] : [];
  });
  const info = given.some((d) => d['@type'].endsWith('.ErrorInfo')) ? undefined : errorInfoFor(code);
  const details: Array<Record<string, unknown>> = [...(info ? [info] : []), ...given];
  const trailers: Record<string, string> = {};
  const hints = Array.isArray(data) ? undefined : DataHints.safeParse(data ?? {}).data;
  hint(hints?.retry_after_ms ?? (hints?.retryAfter === undefined ? undefined : hints.retryAfter * 1000), hints?.retryable, trailers, details);
  const name = version === '0.3' ? a2aNameForCode(code, '0.3') : undefined;
  const text = name !== undefined && code <= -32001 ? `${name}Error: ${message}` : message;
  return { code: grpcCode, message: text, trailers, ...(details.length > 0 ? { details: { code: grpcCode, message: text, details } } : {}) };
}

/** Headers of an HTTP error that are not trailers of a gRPC status (HTTP/2 framing, or the status's own). */
const NOT_TRAILERS = new Set(['content-type', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'retry-after', 'te', 'host']);

function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A bare HTTP error outcome as a status: the code for its status, its headers as trailers, a
 * problem+json body's `title`/`detail` as the message and its `retry_after_ms` / `retry_after_seconds`
 * / `is_retriable`, else `Retry-After`, as the pushback trailer and a RetryInfo detail.
 */
export function grpcStatusForHttp(status: number, headers: Record<string, string>, body: string, now = Date.now()): GrpcStatusOut {
  const code = grpcCodeForHttp(status);
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  let problem: z.infer<typeof ProblemHints> | undefined;
  if ((lower['content-type'] ?? '').includes('json')) {
    try {
      problem = ProblemHints.safeParse(JSON.parse(body)).data;
    } catch (error: unknown) {
      // Not JSON after all: the status alone says it.
      void error;
    }
  }
  const trailers: Record<string, string> = {};
  for (const [k, v] of Object.entries(lower)) if (!NOT_TRAILERS.has(k) && !k.startsWith('grpc-') && !k.startsWith(':')) trailers[k] = v;
  const details: Array<Record<string, unknown>> = [];
  const delay = problem?.retry_after_ms ?? (problem?.retry_after_seconds === undefined ? undefined : problem.retry_after_seconds * 1000) ?? retryAfterMs(lower['retry-after'], now);
  hint(delay, problem?.is_retriable, trailers, details);
  const message = [problem?.title, problem?.detail].filter((s) => s !== undefined).join(': ') || `HTTP ${status}`;
  return { code, message, trailers, ...(details.length > 0 ? { details: { code, message, details } } : {}) };
}
