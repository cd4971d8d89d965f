/**
 * This SDK's errors → what `@a2a-js/sdk` 1.x's own transports throw for the same failure, with the
 * `A2AClientError` behind it as `cause`: the SDK's JSON-RPC, REST and gRPC error classes (built by the
 * SDK's own decoders where it exports them), the caller's abort reason for an aborted call, the SDK's
 * plain `Error` for an HTTP failure without an A2A error body. A failure the official transports have
 * no class for (a timeout, an open circuit, a spent retry budget, a refused connection, an invalid
 * answer) is the `A2AClientError` itself.
 */
import type { ClientProtocol } from '../../client/endpoint.js';
import { isA2AClientError, type A2AClientError } from '../../errors/a2a-client-error.js';
import { agentMessage, withCause } from '../agent-message.js';
import { loadGrpcErrors, type SdkV1 } from './sdk.js';

/** Where and how a failure happened, as the official transport would name it. */
export interface FailureSite {
  /** The v1.0 method name (`SendMessage`, `ListTaskPushNotificationConfigs`, …). */
  method: string;
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  /** A stream had yielded items before the failure (its error came in an SSE frame). */
  midStream?: boolean;
}

const GRPC_CLASSES = {
  TaskNotFound: 'GrpcTaskNotFoundError',
  TaskNotCancelable: 'GrpcTaskNotCancelableError',
  PushNotificationNotSupported: 'GrpcPushNotificationNotSupportedError',
  UnsupportedOperation: 'GrpcUnsupportedOperationError',
  ContentTypeNotSupported: 'GrpcContentTypeNotSupportedError',
  InvalidAgentResponse: 'GrpcInvalidAgentResponseError',
  ExtendedAgentCardNotConfigured: 'GrpcExtendedAgentCardNotConfiguredError',
  ExtensionSupportRequired: 'GrpcExtensionSupportRequiredError',
  VersionNotSupported: 'GrpcVersionNotSupportedError',
} as const;

/** JSON-RPC `error.data` of the shape the SDK's envelope type takes (an object or an array of objects). */
function isData(value: unknown): value is Record<string, unknown> | Array<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

function jsonRpc(sdk: SdkV1, e: A2AClientError, site: FailureSite): Error {
  const error = { code: e.code ?? -32603, message: agentMessage(e), ...(isData(e.data) ? { data: e.data } : {}) };
  const typed = withCause(sdk.errors.fromJsonRpcErrorResponse({ jsonrpc: '2.0', id: null, error }), e);
  if (!site.midStream) return typed;
  // The official transport wraps an error frame of a stream in a plain Error, the class as its cause.
  return new Error(`SSE event contained an error: ${error.message} (Code: ${error.code}) Data: ${JSON.stringify(e.data ?? {})}`, { cause: typed });
}

function rest(sdk: SdkV1, e: A2AClientError, site: FailureSite): Error {
  const ctx = { statusCode: e.status ?? 500, ...(e.headers === undefined ? {} : { headers: { ...e.headers } }) };
  const status = e.rpcStatus;
  const body = status === undefined ? { message: `HTTP error for ${site.method}: ${e.status ?? 'stream error'}` } : { message: status.message, code: status.code, status: status.status, details: status.details as Array<Record<string, unknown>> | undefined };
  return withCause(sdk.errors.fromRestErrorBody(body, ctx), e);
}

async function grpc(e: A2AClientError): Promise<Error> {
  const name = e.a2aName as keyof typeof GRPC_CLASSES | undefined;
  const className = name === undefined ? undefined : GRPC_CLASSES[name];
  if (className === undefined || e.grpcCode === undefined) return e;
  const classes = await loadGrpcErrors();
  return new classes[className]({ message: e.rpcStatus?.message ?? e.message, status: e.grpcCode, cause: e });
}

/**
 * The error the official transport of `protocol` throws for `error`.
 * @throws never; returns what to throw.
 */
export async function sdkErrorV1(sdk: SdkV1, error: unknown, protocol: ClientProtocol, site: FailureSite): Promise<unknown> {
  if (!isA2AClientError(error)) return error;
  if (error.kind === 'aborted' && site.signal?.aborted) return site.signal.reason;
  if (protocol.binding === 'GRPC') return error.kind === 'http' ? grpc(error) : error;
  if (error.kind === 'json-rpc') return jsonRpc(sdk, error, site);
  if (error.kind !== 'http') return error;
  if (protocol.binding === 'HTTP+JSON') return rest(sdk, error, site);
  return new Error(`HTTP error for ${site.method}! Status: ${error.status ?? 'none'}. Response: ${error.bodyText ?? '(empty or non-JSON response)'}`, { cause: error });
}
