/**
 * Turning error answers into typed errors: JSON-RPC error objects → kind `json-rpc`; non-2xx HTTP
 * responses → kind `http` (with `problem` / `rpcStatus` parsed), unless the body is a JSON-RPC error.
 */
import { lazy, z } from '../util/lazy-zod.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { parseProblem, parseRpcStatus } from '../errors/parse-problem.js';
import { parseErrorDetails } from '../errors/rpc-details.js';
import { a2aNameForCode, a2aNameForReason, isA2ACode } from './error-codes.js';
import type { ProtocolVersion } from './model.js';
import { bounded, parseWire } from './validate.js';
import { isNumber, isObject } from './wire-check.js';

/** A JSON-RPC error object as received. */
export const RpcErrorSchema = lazy(() => z.looseObject({
  code: z.number(),
  message: z.catch(z.string(), ''),
  data: z.optional(z.unknown()),
}));

/**
 * A JSON-RPC response envelope (result or error). A plain (strip) object: callers read only these
 * members, and a loose one would copy every other key on each response.
 */
export const RpcEnvelopeSchema = lazy(() => z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(z.union([z.string(), z.number(), z.null()])),
  result: z.optional(z.unknown()),
  error: z.optional(RpcErrorSchema),
}));

/** A result envelope as {@link RpcEnvelopeSchema} takes it, without `error` (zod then has nothing to fill in). */
function isResultEnvelope(json: unknown): json is RpcEnvelope {
  if (!isObject(json) || json['jsonrpc'] !== '2.0' || json['error'] !== undefined) return false;
  const id = json['id'];
  return id === undefined || id === null || typeof id === 'string' || isNumber(id);
}

/** A validated JSON-RPC response envelope. */
export type RpcEnvelope = z.output<typeof RpcEnvelopeSchema>;

/**
 * Validates a JSON-RPC response envelope. A result envelope is used as is (its members are what zod
 * would output); an error envelope goes through zod, whose `.catch` fills a missing message.
 * @throws A2AClientError kind `invalid-response` naming the offending member.
 */
export function readEnvelope(json: unknown, method: string): RpcEnvelope {
  if (isResultEnvelope(json)) return json;
  return parseWire(RpcEnvelopeSchema, json, '', method);
}

const MESSAGE_LIMIT = 500;

/** Where an error answer came from. */
export interface ErrorSource {
  version: ProtocolVersion;
  method?: string;
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A JSON-RPC error object → `A2AClientError` kind `json-rpc` (message from the server, bounded). Typed
 * `google.rpc` details in `data` (v1.0: an array of `@type` objects; 1.0.1 no longer requires an
 * ErrorInfo among them) are read into `details`. The A2A name comes from an A2A code (−32001 …), else
 * from an ErrorInfo `reason` (a server-specific or generic code with `reason: TASK_NOT_FOUND` is
 * `TaskNotFound`), else from a standard code (`InternalError`, …).
 */
export function jsonRpcError(error: z.infer<typeof RpcErrorSchema>, src: ErrorSource): A2AClientError {
  const details = parseErrorDetails(error.data);
  const byCode = a2aNameForCode(error.code, src.version);
  const byReason = details?.reason === undefined ? undefined : a2aNameForReason(details.reason);
  const a2aName = byCode !== undefined && isA2ACode(error.code) ? byCode : (byReason ?? byCode);
  const text = bounded(error.message, MESSAGE_LIMIT);
  return new A2AClientError({
    kind: 'json-rpc',
    message: `JSON-RPC error ${error.code}${a2aName ? ` ${a2aName}` : ''}: ${text}`,
    code: error.code,
    data: error.data,
    details,
    a2aName,
    method: src.method,
    status: src.status,
    headers: src.headers,
    phase: 'after-send',
  });
}

function tryJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON after all: the caller keeps the text in `bodyText`.
    return undefined;
  }
}

/**
 * An error answer body (a non-2xx response, or an SSE `event: error` frame) → typed error: a
 * JSON-RPC error stays kind `json-rpc` (with `status`); anything else is kind `http` with
 * `problem`/`rpcStatus`. `status` is the response's HTTP status; `undefined` for an error frame inside
 * a stream, whose HTTP status (200) says nothing about the failure (see {@link streamErrorFrame}).
 */
export function errorFromBody(status: number | undefined, text: string, src: ErrorSource): A2AClientError {
  const json = tryJson(text);
  const rpc = RpcEnvelopeSchema.safeParse(json);
  if (rpc.success && rpc.data.error) return jsonRpcError(rpc.data.error, { ...src, status });
  const bare = RpcErrorSchema.safeParse(json);
  const problem = parseProblem(json);
  const rpcStatus = parseRpcStatus(json);
  if (!problem && !rpcStatus && bare.success && src.status === undefined && (status === undefined || status < 300)) {
    return jsonRpcError(bare.data, { ...src, status });
  }
  // A bare `{ code, message }` body (v0.3 REST) keeps its JSON-RPC code; a google.rpc ErrorInfo
  // reason (v1.0 REST) names the A2A error, so `a2aName` is the same on every binding and revision
  // (1.0.0 sent TaskNotCancelable as 409, 1.0.1 as 400). A status alone names nothing: 400 means
  // several A2A errors in 1.0.1, and gateways answer 404, 409, 415 or 502 on their own.
  const code = !problem && !rpcStatus && bare.success ? bare.data.code : undefined;
  const details = parseErrorDetails(rpcStatus?.details);
  const a2aName = code !== undefined ? a2aNameForCode(code, src.version) : details?.reason === undefined ? undefined : a2aNameForReason(details.reason);
  const detail = rpcStatus?.message ?? problem?.detail ?? problem?.title ?? (bare.success ? bare.data.message : undefined);
  const head = status === undefined ? 'Stream error event' : `HTTP ${status}`;
  return new A2AClientError({
    kind: 'http',
    message: `${head}${rpcStatus?.status ? ` ${rpcStatus.status}` : ''}${a2aName ? ` ${a2aName}` : ''}${detail ? `: ${bounded(detail, MESSAGE_LIMIT)}` : ''}`,
    status,
    code,
    a2aName,
    headers: src.headers,
    bodyText: bounded(text),
    problem,
    rpcStatus,
    details,
    method: src.method,
    phase: 'after-send',
  });
}

/** An HTTP status (100–599), or `undefined`. */
function httpStatus(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
}

/**
 * An SSE `event: error` frame → typed error, as {@link errorFromBody} reads an error body, with the
 * status the frame itself names (`google.rpc.Status.code`, problem+json `status`) instead of the
 * stream's 200: a `{"error":{"code":503,…}}` frame is an HTTP 503 (retryable), a plain-text frame
 * kind `http` without a status (ResponseError code `http`), never "200".
 */
export function streamErrorFrame(text: string, src: ErrorSource): A2AClientError {
  const json = tryJson(text);
  return errorFromBody(httpStatus(parseRpcStatus(json)?.code) ?? httpStatus(parseProblem(json)?.status), text, src);
}
