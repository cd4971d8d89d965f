import type { Artifact, Part, SendResult, Task } from '../protocol/model.js';
import type { AgentEvent } from './agent-event.js';
import type { ConverterContext } from './converter.js';
import { failureEvent, interruptedEvents, messageEvent, recoverableEvent, statusMetadata, taskSource } from './event-builders.js';
import { artifactsText, isFailureState, isInterruptedState, pickId, textOf } from './event-parts.js';
import { agentFailure, hasStructuredError, readErrorMetadata, responseErrorFromMetadata } from './response-error-from-metadata.js';

/** The first artifact whose metadata carries a structured error. */
export function errorArtifact(artifacts: readonly Artifact[] | undefined): Artifact | undefined {
  return artifacts?.find((a) => hasStructuredError(readErrorMetadata(a.metadata)));
}

/**
 * A completed task: `chat.completion` with its artifacts' text (else the status message's text).
 * Without `withAnswer` (a stream with `accumulate: false`) the artifacts' text and parts are left out.
 */
function completedEvent(task: Task, ctx: ConverterContext, bufferedText?: string, withAnswer = true): AgentEvent {
  let text = bufferedText ?? '';
  if (text === '' && withAnswer) text = artifactsText(task.artifacts);
  if (text === '') text = textOf(task.status.message?.parts);
  const parts: Part[] = [];
  if (withAnswer) for (const artifact of task.artifacts ?? []) for (const part of artifact.parts) parts.push(part);
  const lastArtifact = task.artifacts?.at(-1);
  return {
    id: pickId(
      readErrorMetadata(statusMetadata(taskSource(task))).llmResponseId,
      task.status.message?.messageId,
      lastArtifact?.artifactId,
    ),
    object: 'chat.completion',
    done: true,
    partial: false,
    text,
    parts: parts.length > 0 ? parts : (task.status.message?.parts ?? []),
    taskId: task.id,
    contextId: task.contextId,
    state: task.status.state,
    agent: ctx.agent,
    raw: task,
  };
}

/** A terminal error event from an artifact carrying error metadata. */
export function artifactErrorEvent(
  artifact: Artifact,
  taskId: string,
  contextId: string,
  raw: unknown,
  ctx: ConverterContext,
): AgentEvent {
  const fields = readErrorMetadata(artifact.metadata);
  const text = textOf(artifact.parts);
  const fallback = text !== '' ? text : 'task failed';
  const error = responseErrorFromMetadata(artifact.metadata, fallback, 'flow_error') ?? agentFailure(fallback);
  return {
    id: pickId(fields.llmResponseId, artifact.artifactId),
    object: 'error',
    done: true,
    partial: false,
    error,
    taskId,
    contextId,
    state: fields.taskState !== undefined && isFailureState(fields.taskState) ? fields.taskState : 'failed',
    agent: ctx.agent,
    raw,
  };
}

/**
 * A Task, whatever its state: failed/rejected/canceled → exactly one terminal error event
 * (artifacts skipped); completed → `chat.completion`; interrupted → see `interruptedEvents`;
 * anything else (submitted/working/unknown, e.g. a non-blocking send) → one `task.status` event with
 * `done: true` and the state (after a recoverable error event when error metadata is there).
 * `bufferedText` (streams) replaces the artifacts' text when set; `withAnswer: false` (a stream with
 * `accumulate: false`) leaves the artifacts' text and parts out of `chat.completion`. Never throws.
 */
export function taskEvents(task: Task, ctx: ConverterContext, bufferedText?: string, withAnswer = true): AgentEvent[] {
  const state = task.status.state;
  if (isFailureState(state)) return [failureEvent(taskSource(task), ctx)];
  const bad = errorArtifact(task.artifacts);
  if (bad && (state === 'completed' || state === 'unknown')) {
    return [artifactErrorEvent(bad, task.id, task.contextId, task, ctx)];
  }
  if (state === 'completed') return [completedEvent(task, ctx, bufferedText, withAnswer)];
  if (isInterruptedState(state)) return interruptedEvents(taskSource(task), ctx);
  const text = textOf(task.status.message?.parts);
  const event: AgentEvent = {
    id: pickId(
      readErrorMetadata(statusMetadata(taskSource(task))).llmResponseId,
      task.status.message?.messageId,
      task.id,
    ),
    object: 'task.status',
    done: true,
    partial: false,
    taskId: task.id,
    contextId: task.contextId,
    state,
    agent: ctx.agent,
    raw: task,
  };
  if (text !== '') event.text = text;
  const recoverable = recoverableEvent(taskSource(task), ctx);
  return recoverable ? [recoverable, event] : [event];
}

/** `convert` of the default converter: one unary result → its events. Never throws. */
export function convertUnary(result: SendResult, ctx: ConverterContext): AgentEvent[] {
  return result.kind === 'message' ? [messageEvent(result, ctx)] : taskEvents(result, ctx);
}
