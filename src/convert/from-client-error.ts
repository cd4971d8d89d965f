import type { A2AClientError } from '../errors/a2a-client-error.js';
import { responseErrorFromClientError } from '../errors/response-error-from.js';
import type { AgentEvent } from './agent-event.js';

export { responseErrorFromClientError, RESPONSE_ERROR_TYPES } from '../errors/response-error-from.js';

/**
 * The one terminal error event for a call that failed with a client error (`object: 'error'`,
 * `done: true`, `error` from {@link responseErrorFromClientError}). Never throws.
 */
export function errorEvent(err: A2AClientError, agent: string): AgentEvent {
  return {
    id: `error-${crypto.randomUUID()}`,
    object: 'error',
    done: true,
    partial: false,
    error: responseErrorFromClientError(err),
    agent,
  };
}
