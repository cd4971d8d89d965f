import { isA2AClientError, type A2AClientError } from '../errors/a2a-client-error.js';
import type { ResponseError } from '../errors/a2a-client-error.js';
import { RESPONSE_ERROR_TYPES, responseErrorFromClientError } from '../convert/from-client-error.js';
import { activeTraceId } from '../tracing/active-trace.js';
import { traceIdOf } from '../tracing/trace-ids.js';

/** The JSON-RPC code a wrapped downstream failure is reported with (internal error). */
export const DOWNSTREAM_ERROR_CODE = -32603;

/** A downstream failure as it travels in `error.data`: the ResponseError fields, plus the chain below it. */
export interface DownstreamErrorData {
  /** The agent that reports the failure (this one). */
  currentAgent: string;
  /** The agent it called, which failed. */
  downstreamAgent: string;
  /** The downstream ResponseError (without its local `cause`), and the chain below it when it was itself wrapped. */
  downstreamError: Omit<ResponseError, 'cause'> & {
    /** The chain below it, when the downstream failure was itself wrapped. */
    data?: DownstreamErrorData;
  };
  /** Whether repeating the request may succeed. */
  retryable: boolean;
  /**
   * The trace (W3C trace id, 32 hex digits) of the call to the downstream agent, when it was traced
   * (else of the span active while wrapping): the current agent's caller can find it in the traces.
   */
  traceId?: string;
}

/** A JSON-RPC error object, ready to be returned by an agent's server. */
export interface JsonRpcErrorObject {
  /** Always {@link DOWNSTREAM_ERROR_CODE} (−32603). */
  code: number;
  /** Names the downstream agent and its failure. */
  message: string;
  /** The failure and the chain below it. */
  data: DownstreamErrorData;
}

/**
 * Wraps the failure of an agent this agent called into the JSON-RPC error this agent returns, so
 * its own caller sees the whole chain and whether a retry may help. `error` is the ResponseError of
 * a terminal event, or an A2AClientError caught from a protocol-level call. With tracing on,
 * `data.traceId` names the trace of the failed call (or of the active span). Never throws.
 */
export function wrapDownstreamError(input: {
  downstreamAgent: string;
  currentAgent: string;
  error: ResponseError | A2AClientError;
}): JsonRpcErrorObject {
  const { downstreamAgent, currentAgent, error } = input;
  const client = isA2AClientError(error) ? error : error.cause;
  const base = isA2AClientError(error) ? responseErrorFromClientError(error) : error;
  const inner = client?.kind === 'json-rpc' ? asChain(client.data) : undefined;
  const retryable = base.retryable === true;
  const downstreamError: DownstreamErrorData['downstreamError'] = {
    type: base.type,
    source: base.source,
    message: base.message,
    ...(base.code !== undefined ? { code: base.code } : {}),
    ...(base.param !== undefined ? { param: base.param } : {}),
    retryable,
    ambiguous: base.ambiguous === true,
    ...(base.retryAfterMs !== undefined ? { retryAfterMs: base.retryAfterMs } : {}),
    ...(base.traceId !== undefined ? { traceId: base.traceId } : {}),
    ...(inner ? { data: inner } : {}),
  };
  const traceId = traceIdOf(client) ?? activeTraceId();
  return {
    code: DOWNSTREAM_ERROR_CODE,
    message: `downstream agent "${downstreamAgent}" failed: ${base.message}`,
    data: { currentAgent, downstreamAgent, downstreamError, retryable, ...(traceId !== undefined ? { traceId } : {}) },
  };
}

/** One link of an unwrapped chain: the agent that failed and its error. */
export interface DownstreamFailure {
  /** The agent that reported it. */
  reportedBy: string;
  /** The agent that failed. */
  agent: string;
  /** Its failure. */
  error: ResponseError;
  /** The trace of the call that failed, when the reporter traced it. */
  traceId?: string;
}

/**
 * Reads a chain written by {@link wrapDownstreamError} back into ResponseErrors, outermost first;
 * accepts the JSON-RPC error object, its `data`, or an A2AClientError of kind `json-rpc`. Returns an
 * empty array when the value is not such a chain.
 */
export function unwrapDownstreamError(value: unknown): DownstreamFailure[] {
  const data = isA2AClientError(value)
    ? value.data
    : isRecord(value) && 'data' in value && !('downstreamAgent' in value)
      ? value.data
      : value;
  const out: DownstreamFailure[] = [];
  let link = asChain(data);
  while (link) {
    const { data: next, ...error } = link.downstreamError;
    out.push({ reportedBy: link.currentAgent, agent: link.downstreamAgent, error, ...(link.traceId !== undefined ? { traceId: link.traceId } : {}) });
    link = next;
  }
  return out;
}

/** For a chain written without `source` (another implementation): the SDK's own types are the path's. */
function sourceOfType(type: string): ResponseError['source'] {
  return type === 'converter_error' || Object.values(RESPONSE_ERROR_TYPES).includes(type) ? 'path' : 'agent';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates one link of a chain read from the wire (untrusted), recursively. */
function asChain(value: unknown, depth = 0): DownstreamErrorData | undefined {
  if (!isRecord(value) || depth > 32) return undefined;
  const { currentAgent, downstreamAgent, downstreamError, retryable, traceId: linkTraceId } = value;
  if (typeof currentAgent !== 'string' || typeof downstreamAgent !== 'string' || !isRecord(downstreamError)) return undefined;
  const { type, source, message, code, param, retryAfterMs, traceId, data } = downstreamError;
  if (typeof type !== 'string' || typeof message !== 'string') return undefined;
  const next = asChain(data, depth + 1);
  return {
    currentAgent,
    downstreamAgent,
    retryable: retryable === true,
    ...(typeof linkTraceId === 'string' && /^[0-9a-f]{32}$/.test(linkTraceId) ? { traceId: linkTraceId } : {}),
    downstreamError: {
      type,
      source: source === 'agent' || source === 'path' ? source : sourceOfType(type),
      message,
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof param === 'string' ? { param } : {}),
      retryable: downstreamError.retryable === true,
      ambiguous: downstreamError.ambiguous === true,
      ...(typeof retryAfterMs === 'number' ? { retryAfterMs } : {}),
      ...(typeof traceId === 'string' ? { traceId } : {}),
      ...(next ? { data: next } : {}),
    },
  };
}
