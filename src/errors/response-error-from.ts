import { lazy, z } from '../util/lazy-zod.js';
import type { A2AClientError } from './a2a-client-error.js';
import { hintsOf } from './hints.js';
import { parseErrorDetails } from './rpc-details.js';
import type { A2AErrorKind } from './kinds.js';
import type { ResponseError } from './a2a-client-error.js';

/**
 * `ResponseError.type` for each client-error kind — a small, stable set:
 * `transport_error` (connection), `timeout_error` (connect/read/idle timeouts, deadline),
 * `aborted` (the caller's signal), `http_error` (non-2xx), `protocol_error` (JSON-RPC error, invalid
 * response, unsupported, card), `circuit_open`, `overloaded` (retry budget / bulkhead),
 * `insufficient_results` (fanOut).
 */
export const RESPONSE_ERROR_TYPES: Readonly<Record<A2AErrorKind, string>> = {
  'connect-timeout': 'timeout_error',
  'read-timeout': 'timeout_error',
  'idle-timeout': 'timeout_error',
  'deadline-exceeded': 'timeout_error',
  aborted: 'aborted',
  connection: 'transport_error',
  http: 'http_error',
  'json-rpc': 'protocol_error',
  'invalid-response': 'protocol_error',
  unsupported: 'protocol_error',
  card: 'protocol_error',
  'circuit-open': 'circuit_open',
  'budget-exhausted': 'overloaded',
  'bulkhead-rejected': 'overloaded',
  'insufficient-results': 'insufficient_results',
};

const traceData = lazy(() => z.looseObject({ trace_id: z.optional(z.string()) }));

/** What identifies the failure beyond retry hints: the v1.0 ErrorInfo reason, a trace id, the offending field. */
interface Identity {
  reason?: string;
  traceId?: string;
  param?: string;
}

function identityOf(err: A2AClientError): Identity {
  const out: Identity = {};
  if (typeof err.problem?.trace_id === 'string') out.traceId = err.problem.trace_id;
  const data = traceData.safeParse(err.data);
  if (data.success) out.traceId ??= data.data.trace_id;
  const details = err.details ?? parseErrorDetails(err.data) ?? parseErrorDetails(err.rpcStatus?.details);
  if (details?.reason !== undefined) out.reason = details.reason;
  out.traceId ??= details?.metadata?.['trace_id'];
  const field = details?.fieldViolations?.[0]?.field;
  if (field !== undefined) out.param = field;
  return out;
}

function messageOf(err: A2AClientError, reason: string | undefined): string {
  const problem = err.problem;
  let message = err.message;
  if (problem && (typeof problem.detail === 'string' || typeof problem.title === 'string')) {
    const parts = [problem.title, problem.detail].filter((p): p is string => typeof p === 'string' && p !== '');
    message = parts.join(': ');
  }
  if (reason !== undefined && !message.includes(reason)) message = `${message} (${reason})`;
  return message;
}

/** The HTTP status names the failure: an error answer (kind `http`), or a card fetch refused with one. */
function statusIsTheFailure(err: A2AClientError): boolean {
  if (err.status === undefined) return false;
  return err.kind === 'http' || (err.kind === 'card' && (err.status < 200 || err.status > 299));
}

/**
 * The {@link ResponseError} for a client error: `source` is `path`; `type` from `RESPONSE_ERROR_TYPES` (one per error kind); `code` is the
 * JSON-RPC code as a string, else the HTTP status as a string when the status is the failure (kind
 * `http`, or a `card` fetch answered with a non-2xx status), else the kind — so an `invalid-response`
 * to a 200, a timeout or a reset has code `invalid-response`, `read-timeout`, `connection`, never `"200"`;
 * `retryable` and `ambiguous` are the error's own (set by the resilience layer's `classify` when the
 * call gave up: whether repeating may succeed, whether a repeat could run a send twice) — a server's
 * explicit `retryable: false` / `is_retriable: false` is a no even on an error built elsewhere;
 * `retryAfterMs` is the error's own, else the server's hint as read by `hintsOf` (problem+json
 * `retry_after_ms`, JSON-RPC `data.retryAfter` seconds, `google.rpc.RetryInfo`, Retry-After); `message` from problem+json `title`/`detail` else the error's, with a v1.0
 * `google.rpc.ErrorInfo.reason` appended; `traceId` from `trace_id` (problem+json, `data`, or ErrorInfo
 * metadata); `param` from the first `google.rpc.BadRequest` field violation; `cause` is the error. Never throws.
 */
export function responseErrorFromClientError(err: A2AClientError): ResponseError {
  const hints = hintsOf(err);
  const identity = identityOf(err);
  const code = err.code !== undefined ? String(err.code) : statusIsTheFailure(err) ? String(err.status) : err.kind;
  const out: ResponseError = {
    type: RESPONSE_ERROR_TYPES[err.kind],
    source: 'path',
    message: messageOf(err, identity.reason),
    code,
    retryable: hints.retryable === false ? false : err.retryable,
    ambiguous: err.ambiguous,
    cause: err,
  };
  const retryAfterMs = err.retryAfterMs ?? hints.retryAfterMs;
  if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
  if (identity.traceId !== undefined) out.traceId = identity.traceId;
  if (identity.param !== undefined) out.param = identity.param;
  return out;
}
