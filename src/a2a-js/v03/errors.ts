/**
 * This SDK's errors → what `@a2a-js/sdk` 0.3's own transports throw for the same failure, as closely
 * as a copy of the SDK we cannot import allows: the same class names (`error.name`: `TaskNotFoundError`,
 * …), messages and `errorResponse`, with the `A2AClientError` behind it as `cause`. `instanceof` against
 * the 0.3 classes does not hold (they carry no brand); match `error.name`. A failure the official
 * transports have no class for (timeout, open circuit, spent budget, refused connection, invalid answer)
 * is an `SdkV03Error` named `A2AClientError` with this SDK's message. Frameworks built on the 0.3 SDK keep
 * only an error's message (`@google/adk`'s `errorMessage`), so every message ends with what happened:
 * the kind, the code or status, the attempts made and the agent.
 */
import type { ClientProtocol } from '../../client/endpoint.js';
import { isA2AClientError, type A2AClientError } from '../../errors/a2a-client-error.js';
import { agentMessage } from '../agent-message.js';

const CLASSES: Readonly<Record<number, readonly [name: string, defaultMessage: string]>> = {
  [-32001]: ['TaskNotFoundError', 'Task not found'],
  [-32002]: ['TaskNotCancelableError', 'Task cannot be canceled'],
  [-32003]: ['PushNotificationNotSupportedError', 'Push Notification is not supported'],
  [-32004]: ['UnsupportedOperationError', 'This operation is not supported'],
  [-32005]: ['ContentTypeNotSupportedError', 'Incompatible content types'],
  [-32006]: ['InvalidAgentResponseError', 'Invalid agent response type'],
  [-32007]: ['AuthenticatedExtendedCardNotConfiguredError', 'Authenticated Extended Card not configured'],
};

/** A JSON-RPC error response, as the 0.3 SDK's JSON-RPC errors carry it. */
export interface V03ErrorResponse {
  /** Always `2.0`. */
  jsonrpc: '2.0';
  /** The request id (not kept: `null`). */
  id: null;
  /** The agent's error object. */
  error: {
    /** The JSON-RPC code. */
    code: number;
    /** The agent's message. */
    message: string;
    /** The agent's `data`. */
    data?: unknown;
  };
}

/** An error of the 0.3 SDK's shape: its `name`, its message, the JSON-RPC `errorResponse` when there was one. */
export class SdkV03Error extends Error {
  /** The JSON-RPC error response, as the 0.3 SDK's JSON-RPC errors carry it. */
  readonly errorResponse: V03ErrorResponse | undefined;

  /** An error named `name` (the 0.3 class name) with the agent's `errorResponse` and this SDK's error as `cause`. */
  constructor(name: string, message: string, errorResponse: SdkV03Error['errorResponse'], cause: unknown) {
    super(message, { cause });
    this.name = name;
    this.errorResponse = errorResponse;
  }
}

/** `(a2a-resilient: http 503, 3 attempts, agent "billing")`: what the official message does not say. */
function summary(e: A2AClientError): string {
  const code = e.code !== undefined ? ` ${e.code}${e.a2aName ? ` ${e.a2aName}` : ''}` : e.status !== undefined ? ` ${e.status}` : '';
  const attempts = Math.max(1, e.attempts.length);
  return `(a2a-resilient: ${e.kind}${code}, ${attempts} attempt${attempts === 1 ? '' : 's'}${e.agent ? `, agent "${e.agent}"` : ''})`;
}

function codeError(e: A2AClientError, binding: string): Error {
  const code = e.code ?? -32603;
  const message = agentMessage(e);
  const known = CLASSES[code];
  if (binding === 'JSONRPC') {
    const errorResponse = { jsonrpc: '2.0' as const, id: null, error: { code, message, ...(e.data === undefined ? {} : { data: e.data }) } };
    // The 0.3 JSON-RPC transport builds its named errors without the agent's text.
    if (known) return new SdkV03Error(known[0], known[1], errorResponse, e);
    return new SdkV03Error('Error', `JSON-RPC error: ${message} (Code: ${code}) Data: ${JSON.stringify(e.data ?? {})}`, errorResponse, e);
  }
  if (known) return new SdkV03Error(known[0], message, undefined, e);
  return new SdkV03Error('Error', `REST error: ${message} (Code: ${code})${e.data === undefined ? '' : ` Data: ${JSON.stringify(e.data)}`}`, undefined, e);
}

/**
 * The error the 0.3 transport of `protocol` throws for `error` in `method` (`stream`: a streaming call;
 * `midStream`: after it yielded items).
 * @throws never; returns what to throw.
 */
export function sdkErrorV03(error: unknown, protocol: ClientProtocol, site: { method: string; signal?: AbortSignal | undefined; stream?: boolean; midStream?: boolean }): unknown {
  if (!isA2AClientError(error)) return error;
  if (error.kind === 'aborted' && site.signal?.aborted) return site.signal.reason;
  const typed = officialShape(error, protocol, site);
  typed.message = `${typed.message} ${summary(error)}`;
  return typed;
}

function officialShape(error: A2AClientError, protocol: ClientProtocol, site: { method: string; stream?: boolean; midStream?: boolean }): Error {
  if (error.code !== undefined && (error.kind === 'json-rpc' || error.kind === 'http')) {
    const typed = codeError(error, protocol.binding);
    if (!site.midStream || protocol.binding !== 'JSONRPC') return typed;
    return new SdkV03Error('Error', `SSE event contained an error: ${agentMessage(error)} (Code: ${error.code}) Data: ${JSON.stringify(error.data ?? {})}`, undefined, typed);
  }
  if (error.kind === 'http' && error.status !== undefined && protocol.binding !== 'GRPC') {
    const head = site.stream ? `HTTP error establishing stream for ${site.method}: ${error.status}` : `HTTP error for ${site.method}! Status: ${error.status}`;
    return new SdkV03Error('Error', `${head}. Response: ${error.bodyText ?? '(empty)'}`, undefined, error);
  }
  return new SdkV03Error('A2AClientError', error.message, undefined, error);
}
