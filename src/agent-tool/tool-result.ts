/**
 * What a tool calling an A2A agent hands back to the model: small, JSON-serialisable objects with a
 * literal `ok` discriminant, so a model (and the app) can branch on them without parsing prose.
 */
import type { AgentEvent } from '../convert/agent-event.js';
import type { ResponseError } from '../errors/a2a-client-error.js';
import type { TaskState } from '../protocol/model.js';
import { opt } from '../protocol/opt.js';

/** The ids and state of the A2A task an answer belongs to (each absent when the agent sent none). */
export interface A2AToolTask {
  /** The A2A task the answer belongs to, when the agent made one. */
  taskId?: string;
  /** The A2A context (conversation) of the answer. */
  contextId?: string;
  /**
   * The task's state at the end: `completed`, or `input-required` / `auth-required` when the agent
   * asks something back (its question is `text`), or the failed state of a failure.
   */
  state?: TaskState;
}

/** The agent answered. `state: 'input-required'` means `text` is its question, not its answer. */
export interface A2AToolSuccess extends A2AToolTask {
  /** The discriminant: the call succeeded. */
  ok: true;
  /** The agent's whole answer (text parts of its message or artifacts), `''` when it sent none. */
  text: string;
}

/**
 * The answer so far, while the agent is still writing (AI SDK preliminary results). Never the last
 * result of a call.
 */
export interface A2AToolPartial extends A2AToolTask {
  /** The discriminant: nothing failed so far. */
  ok: true;
  /** Marks a preliminary result: more follows. */
  partial: true;
  /** All text received so far (not just the newest piece). */
  text: string;
}

/** A remote failure, as the model reads it. */
export interface A2AToolError {
  /**
   * Family of the failure: for a failed task the agent's own `error_type` (`flow_error` when it sent none), else
   * `timeout_error`, `transport_error`, `http_error`, `protocol_error`, `aborted`, …
   */
  type: string;
  /** The agent's or the protocol's code (`"-32603"`, `"LEDGER_LOCKED"`), when there is one. */
  code?: string;
  /** What went wrong, for people and models. */
  message: string;
  /** Whether calling again with the same message may succeed. Always set. */
  retryable: boolean;
  /** How long the agent asked to wait before calling again, in ms. */
  retryAfterMs?: number;
}

/** The call failed at the agent or on the way: a result to read, never an exception. */
export interface A2AToolFailure extends A2AToolTask {
  /** The discriminant: the call failed. */
  ok: false;
  /** What failed and whether to try again. */
  error: A2AToolError;
}

/** The last result of one tool call. */
export type A2AToolResult = A2AToolSuccess | A2AToolFailure;

/** Everything one tool call yields: partial results while the answer streams, then one {@link A2AToolResult}. */
export type A2AToolOutput = A2AToolPartial | A2AToolResult;

/** The task fields of an event, only those present (no `undefined` values in the JSON). */
export function taskOf(event: Pick<AgentEvent, 'taskId' | 'contextId' | 'state'> | undefined): A2AToolTask {
  return { ...opt('taskId', event?.taskId), ...opt('contextId', event?.contextId), ...opt('state', event?.state) };
}

/** The model-facing error of a remote failure (drops the cause, trace ids and other internals). */
export function toolError(error: ResponseError): A2AToolError {
  return {
    type: error.type,
    ...opt('code', error.code),
    message: error.message,
    retryable: error.retryable === true,
    ...opt('retryAfterMs', error.retryAfterMs),
  };
}

/**
 * The failure result for a call the caller's signal ended: the task's ids, no state (the task is
 * being cancelled; its last state seen would mislead), the signal's reason as the message.
 */
export function abortedResult(signal: AbortSignal, task: A2AToolTask): A2AToolFailure {
  const reason: unknown = signal.reason;
  const message = reason instanceof Error && reason.message !== '' ? reason.message : 'the call was aborted';
  return { ok: false, error: { type: 'aborted', code: 'aborted', message, retryable: false }, ...opt('taskId', task.taskId), ...opt('contextId', task.contextId) };
}
