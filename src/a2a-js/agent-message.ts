import type { A2AClientError } from '../errors/a2a-client-error.js';

/** What this SDK's messages put before the agent's own text (`JSON-RPC error -32001 TaskNotFound: `). */
const PREFIX = /^JSON-RPC error -?\d+(?: [A-Za-z]+)?: /;

/**
 * The agent's own message of a `json-rpc` error, as it sent it (bounded), for the error classes of
 * the official SDKs, which carry the agent's text as their message.
 */
export function agentMessage(error: A2AClientError): string {
  return error.message.replace(PREFIX, '');
}

/** `error` with `cause` set (an error class of another SDK that takes no cause in the path used). */
export function withCause<E extends object>(error: E, cause: unknown): E {
  Object.defineProperty(error, 'cause', { value: cause, writable: true, configurable: true, enumerable: false });
  return error;
}
