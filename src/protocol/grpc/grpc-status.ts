/**
 * A gRPC status as an `A2AClientError`. A status the agent sent (its trailers arrived) is kind `http`
 * — the same kind a REST `google.rpc.Status` error is — with `status` the HTTP status google.rpc.Code
 * documents for the gRPC code (NOT_FOUND → 404, UNAVAILABLE → 503, RESOURCE_EXHAUSTED → 429, …),
 * `grpcCode` / `grpcStatus` the gRPC code and its name, `details` and `a2aName` from the
 * `google.rpc.ErrorInfo` in `grpc-status-details-bin` (or a v0.3 message prefix such as
 * `TaskNotFoundError: …`), and the trailers as `headers` (so `grpc-retry-pushback-ms` is a hint).
 * A status grpc-js raised itself (no trailers, and a code grpc-js raises: the connection broke) is kind
 * `connection`, after send.
 */
import { A2AClientError } from '../../errors/a2a-client-error.js';
import type { RpcStatus } from '../../errors/problem.js';
import { parseErrorDetails } from '../../errors/rpc-details.js';
import { a2aNameForReason } from '../error-codes.js';
import { bounded } from '../validate.js';

/** gRPC status codes by number (grpc/doc/statuscodes.md). */
export const GRPC_STATUS_NAMES: readonly string[] = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE',
  'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED',
];

/** The HTTP status google/rpc/code.proto documents for each gRPC code. */
const HTTP_FOR_CODE: readonly number[] = [200, 499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];

/** The HTTP status for a gRPC code (500 for a code outside 0–16). */
export function httpStatusForGrpc(code: number): number {
  return HTTP_FOR_CODE[code] ?? 500;
}

/** A failed call as grpc-js reported it, with what the binding saw of the response. */
export interface GrpcFailure {
  code: number;
  /** grpc-js `details`: the status message. */
  details: string;
  /** Trailers (or a Trailers-Only response's headers) as text, lower-case names; empty when grpc-js raised the status itself. */
  trailers: Record<string, string>;
  /** The decoded `grpc-status-details-bin`, when one came and parsed. */
  statusDetails?: unknown;
  /** Response headers had arrived before the failure (the agent had the request). */
  headersReceived: boolean;
}

const V03_PREFIX = /^([A-Za-z]+Error):/;

/**
 * The codes grpc-js raises itself when a call breaks (CANCELLED, UNKNOWN, RESOURCE_EXHAUSTED for an
 * oversized message, INTERNAL, UNAVAILABLE). grpc-js strips `grpc-status` and `grpc-message` from the
 * trailers it reports, so a status the agent sent without other trailers arrives with none: with any
 * other code (FAILED_PRECONDITION, NOT_FOUND, …) it is the agent's all the same.
 */
const LOCAL_CODES: ReadonlySet<number> = new Set([1, 2, 8, 13, 14]);

/** The status details' ProtoJSON as an `RpcStatus` (details kept only when they are objects). */
function rpcStatusOf(json: unknown, code: number, message: string): RpcStatus {
  const out: RpcStatus = { code, status: GRPC_STATUS_NAMES[code] ?? String(code), message };
  if (typeof json === 'object' && json !== null && 'details' in json && Array.isArray(json.details)) {
    out.details = json.details.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d));
  }
  return out;
}

/**
 * The typed error for a failed gRPC call. Local failures that the binding classifies itself (its
 * own cancel, a deadline it set) are not passed here.
 */
export function grpcStatusError(f: GrpcFailure, method: string): A2AClientError {
  const name = GRPC_STATUS_NAMES[f.code] ?? `code ${f.code}`;
  const message = bounded(f.details, 500);
  const fromAgent = Object.keys(f.trailers).length > 0 || !LOCAL_CODES.has(f.code);
  if (!fromAgent) {
    // grpc-js ended the call itself: the connection broke or the stream was reset. Bytes had left,
    // so the agent may have acted (gRFC A6: a locally raised UNAVAILABLE after sending proves nothing).
    return new A2AClientError({
      kind: 'connection',
      reason: f.code === 14 ? 'closed' : 'reset',
      message: `gRPC ${name}: ${message || 'connection lost'}`,
      method,
      phase: 'after-send',
      grpcCode: f.code,
      grpcStatus: name,
    });
  }
  const rpcStatus = rpcStatusOf(f.statusDetails, f.code, f.details);
  const details = parseErrorDetails(rpcStatus.details);
  const a2aName = (details?.reason !== undefined ? a2aNameForReason(details.reason) : undefined) ?? v03Name(f.details);
  return new A2AClientError({
    kind: 'http',
    message: `gRPC ${name}${a2aName ? ` (${a2aName})` : ''}: ${message}`,
    method,
    status: httpStatusForGrpc(f.code),
    headers: f.trailers,
    rpcStatus,
    phase: 'after-send',
    grpcCode: f.code,
    grpcStatus: name,
    ...(details === undefined ? {} : { details }),
    ...(a2aName === undefined ? {} : { a2aName }),
  });
}

/** The A2A name a v0.3 server put at the start of its message (`TaskNotFoundError: …` → `TaskNotFound`). */
function v03Name(message: string): string | undefined {
  const prefix = V03_PREFIX.exec(message)?.[1];
  return prefix === undefined ? undefined : a2aNameForReason(prefix);
}
