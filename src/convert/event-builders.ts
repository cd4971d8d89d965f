import type { Message, Metadata, Task, TaskState, TaskStatus } from '../protocol/model.js';
import type { AgentEvent } from './agent-event.js';
import type { ConverterContext } from './converter.js';
import { FALLBACK_MESSAGES, isFailureState, pickId, textOf } from './event-parts.js';
import { agentFailure, mergeErrorMetadata, readErrorMetadata, responseErrorFromMetadata } from './response-error-from-metadata.js';

/** Where a status came from: a Task or a status-update, with its ids and outer metadata. */
export interface StatusSource {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: Metadata;
  raw: unknown;
}

/** A Task seen as a {@link StatusSource}. */
export function taskSource(task: Task): StatusSource {
  return { taskId: task.id, contextId: task.contextId, status: task.status, metadata: task.metadata, raw: task };
}

/** Outer metadata merged with `status.message.metadata` (outer wins per key). */
export function statusMetadata(source: StatusSource): Metadata | undefined {
  return mergeErrorMetadata(source.metadata, source.status.message?.metadata);
}

/**
 * The terminal error event of a failed / rejected / canceled status: outer metadata first, then the
 * mirror, then the status message text (type `flow_error`, no code), then a fallback message; source `agent`.
 */
export function failureEvent(source: StatusSource, ctx: ConverterContext): AgentEvent {
  const state = source.status.state;
  const metadata = statusMetadata(source);
  const text = textOf(source.status.message?.parts);
  const fallback = text !== '' ? text : isFailureState(state) ? FALLBACK_MESSAGES[state] : 'task failed';
  const error = responseErrorFromMetadata(metadata, fallback, 'flow_error') ?? agentFailure(fallback);
  return {
    id: pickId(readErrorMetadata(metadata).llmResponseId, source.status.message?.messageId),
    object: 'error',
    done: true,
    partial: false,
    error,
    taskId: source.taskId,
    contextId: source.contextId,
    state,
    agent: ctx.agent,
    raw: source.raw,
  };
}

/**
 * The events of an interrupted (input-required / auth-required) status: when it carries a
 * structured error, first a recoverable `task.status` event with `error` and `done: false`
 * (`isTerminalError` is false for it); then always a `task.status` event with `done: true`, `state`
 * and the status message's text (the call ended waiting for input).
 */
export function interruptedEvents(source: StatusSource, ctx: ConverterContext): AgentEvent[] {
  const out: AgentEvent[] = [];
  const recoverable = recoverableEvent(source, ctx);
  if (recoverable) out.push(recoverable);
  const text = textOf(source.status.message?.parts);
  const event: AgentEvent = {
    id: pickId(readErrorMetadata(statusMetadata(source)).llmResponseId, source.status.message?.messageId),
    object: 'task.status',
    done: true,
    partial: false,
    taskId: source.taskId,
    contextId: source.contextId,
    state: source.status.state,
    agent: ctx.agent,
    raw: source.raw,
  };
  if (text !== '') event.text = text;
  if (source.status.message) event.parts = source.status.message.parts;
  out.push(event);
  return out;
}

/**
 * A recoverable error event (`object: 'task.status'`, `done: false`, `error` set) when a
 * non-terminal status carries a structured error; else undefined.
 */
export function recoverableEvent(source: StatusSource, ctx: ConverterContext): AgentEvent | undefined {
  const metadata = statusMetadata(source);
  const text = textOf(source.status.message?.parts);
  const error = responseErrorFromMetadata(metadata, text !== '' ? text : 'agent reported an error', 'flow_error');
  if (!error) return undefined;
  return {
    id: pickId(readErrorMetadata(metadata).llmResponseId, source.status.message?.messageId),
    object: 'task.status',
    done: false,
    partial: false,
    error,
    taskId: source.taskId,
    contextId: source.contextId,
    state: source.status.state,
    agent: ctx.agent,
    raw: source.raw,
  };
}

/**
 * A Message as the whole answer: `chat.completion` (`done: true`), or — when its metadata carries a
 * structured error (e.g. only `error_code`) — a terminal error event whose message is its text.
 */
export function messageEvent(message: Message, ctx: ConverterContext): AgentEvent {
  const fields = readErrorMetadata(message.metadata);
  const text = textOf(message.parts);
  const error = responseErrorFromMetadata(message.metadata, text !== '' ? text : 'agent returned an error', 'flow_error');
  const base = {
    id: pickId(fields.llmResponseId, message.messageId),
    done: true,
    partial: false,
    agent: ctx.agent,
    raw: message,
    ...(message.taskId === undefined ? {} : { taskId: message.taskId }),
    ...(message.contextId === undefined ? {} : { contextId: message.contextId }),
  };
  if (error) {
    const state: TaskState = fields.taskState ?? 'failed';
    return { ...base, object: 'error', error, state };
  }
  return { ...base, object: 'chat.completion', text, parts: message.parts };
}
