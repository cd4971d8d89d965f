import type { Message, Metadata, StreamEvent, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '../protocol/model.js';
import type { AgentEvent } from './agent-event.js';
import type { ConverterContext } from './converter.js';
import {
  failureEvent,
  interruptedEvents,
  messageEvent,
  recoverableEvent,
  statusMetadata,
  type StatusSource,
} from './event-builders.js';
import { artifactText, isFailureState, isInterruptedState, pickId, textOf } from './event-parts.js';
import { hasStructuredError, readErrorMetadata } from './response-error-from-metadata.js';
import { scratchOf, type StreamScratch } from './stream-scratch.js';
import { artifactErrorEvent, taskEvents } from './unary-convert.js';

function chunk(
  ctx: ConverterContext,
  s: StreamScratch,
  text: string,
  id: string,
  raw: unknown,
  state?: AgentEvent['state'],
  replace = false,
): AgentEvent {
  // The usual chunk (raw, task and context ids known, no state, extending) is built in one literal: one shape.
  if (raw !== undefined && s.taskId !== undefined && s.contextId !== undefined && state === undefined && !replace) {
    return { id, object: 'chat.completion.chunk', done: false, partial: true, text, agent: ctx.agent, raw, taskId: s.taskId, contextId: s.contextId };
  }
  const event: AgentEvent = { id, object: 'chat.completion.chunk', done: false, partial: true, text, agent: ctx.agent };
  if (replace) event.replace = true;
  if (raw !== undefined) event.raw = raw;
  if (s.taskId !== undefined) event.taskId = s.taskId;
  if (s.contextId !== undefined) event.contextId = s.contextId;
  if (state !== undefined) event.state = state;
  return event;
}

/** Appends `events` to `out`, and marks the call ended when the last of them is `done`. */
function finish(s: StreamScratch, out: AgentEvent[], events: readonly AgentEvent[]): void {
  for (let i = 0; i < events.length; i++) out.push(events[i] as AgentEvent);
  if (events.at(-1)?.done === true) s.ended = true;
}

/** Appends `event` to `out`; a `done` event ends the call. */
function finishWith(s: StreamScratch, out: AgentEvent[], event: AgentEvent): void {
  out.push(event);
  if (event.done) s.ended = true;
}

/** The update's and its artifact's metadata, the artifact's winning key by key (`undefined` when neither has any). */
function artifactMetadata(update: TaskArtifactUpdateEvent): Metadata | undefined {
  const outer = update.metadata;
  const inner = update.artifact.metadata;
  if (outer === undefined) return inner;
  if (inner === undefined) return outer;
  return { ...outer, ...inner };
}

function onArtifact(update: TaskArtifactUpdateEvent, ctx: ConverterContext, s: StreamScratch, out: AgentEvent[]): void {
  const metadata = artifactMetadata(update);
  const fields = readErrorMetadata(metadata);
  if (hasStructuredError(fields)) {
    const artifact = { ...update.artifact, metadata: { ...metadata } };
    if (fields.taskState !== undefined && !isFailureState(fields.taskState) && fields.taskState !== 'completed') {
      const source: StatusSource = {
        taskId: update.taskId,
        contextId: update.contextId,
        status: { state: fields.taskState },
        metadata: artifact.metadata,
        raw: update,
      };
      const recoverable = recoverableEvent(source, ctx);
      if (recoverable) out.push(recoverable);
      return;
    }
    finishWith(s, out, artifactErrorEvent(artifact, update.taskId, update.contextId, update, ctx));
    return;
  }
  const text = artifactText(update.artifact.parts);
  const id = update.artifact.artifactId;
  const append = update.append === true;
  // A replacement of an artifact seen before is said, even when it leaves nothing (text ''); a first
  // update gives the artifact its place, and one without text has nothing to say yet.
  const replace = !append && s.artifacts.lengthOf(id) !== undefined;
  s.update(id, text, append);
  if (text === '' && !replace) return;
  out.push(chunk(ctx, s, text, pickId(fields.llmResponseId, id), update, undefined, replace));
}

/**
 * The new text of a status message. Agents that stream whole snapshots resend the message as it
 * grows: when its text extends the status text seen last — in a Task snapshot, or in a status-update
 * whose message has the same id as the last one — only the new end is returned (`''` for a repeat);
 * any other message is new and returned whole (a status-update repeating a word is a new word).
 */
function statusDelta(s: StreamScratch, message: Message | undefined, snapshot: boolean): string {
  const text = textOf(message?.parts);
  if (text === '') return '';
  const previous = s.statusText;
  const sameMessage = snapshot || (message !== undefined && message.messageId === s.statusMessageId);
  s.statusText = text;
  s.statusMessageId = message?.messageId;
  return sameMessage && previous !== '' && text.startsWith(previous) ? text.slice(previous.length) : text;
}

/**
 * Chunks bringing each artifact of a Task snapshot up to date: an artifact not seen before → its
 * whole text; one whose text begins with the text seen → the text past it; any other (the agent
 * replaced it) → its whole text as a replacing chunk (`replace: true`, even when empty). The
 * snapshot's text becomes each artifact's text.
 */
function snapshotChunks(task: Task, ctx: ConverterContext, s: StreamScratch, out: AgentEvent[]): void {
  for (const artifact of task.artifacts ?? []) {
    const fields = readErrorMetadata(artifact.metadata);
    if (hasStructuredError(fields)) continue;
    const text = artifactText(artifact.parts);
    const relation = s.artifacts.compare(artifact.artifactId, text);
    const seenLength = s.artifacts.lengthOf(artifact.artifactId) ?? 0;
    s.update(artifact.artifactId, text, false);
    const id = pickId(fields.llmResponseId, artifact.artifactId);
    if (relation === 'unseen') {
      if (text !== '') out.push(chunk(ctx, s, text, id, task));
    } else if (relation === 'extends') {
      if (text.length > seenLength) out.push(chunk(ctx, s, text.slice(seenLength), id, task));
    } else out.push(chunk(ctx, s, text, id, task, undefined, true));
  }
}

function onTask(task: Task, ctx: ConverterContext, s: StreamScratch, out: AgentEvent[]): void {
  const state = task.status.state;
  if (isFailureState(state)) return finish(s, out, taskEvents(task, ctx));
  snapshotChunks(task, ctx, s, out);
  if (state === 'completed' || isInterruptedState(state)) {
    // An answer longer than the limit is not carried, even when this snapshot brings all of it.
    const events = taskEvents(task, ctx, s.artifacts.joined(), !s.answerLetGo);
    const last = events.at(-1);
    if (s.answerLetGo && s.artifacts.chars > 0 && last?.object === 'chat.completion') last.answerOmitted = true;
    return finish(s, out, events);
  }
  const source: StatusSource = { taskId: task.id, contextId: task.contextId, status: task.status, raw: task };
  if (task.metadata) source.metadata = task.metadata;
  const recoverable = recoverableEvent(source, ctx);
  if (recoverable) out.push(recoverable);
  else {
    const text = statusDelta(s, task.status.message, true);
    if (text !== '') out.push(chunk(ctx, s, text, pickId(readErrorMetadata(statusMetadata(source)).llmResponseId, task.status.message?.messageId), task, state));
  }
}

function completedFromStatus(update: TaskStatusUpdateEvent, ctx: ConverterContext, s: StreamScratch): AgentEvent {
  const answer = s.artifacts.joined();
  const source: StatusSource = { ...update, raw: update };
  const event: AgentEvent = {
    id: pickId(readErrorMetadata(statusMetadata(source)).llmResponseId, update.status.message?.messageId),
    object: 'chat.completion',
    done: true,
    partial: false,
    text: answer !== '' ? answer : textOf(update.status.message?.parts),
    taskId: update.taskId,
    contextId: update.contextId,
    state: 'completed',
    agent: ctx.agent,
    raw: update,
  };
  if (s.answerLetGo && s.artifacts.chars > 0) event.answerOmitted = true;
  return event;
}

function onStatus(update: TaskStatusUpdateEvent, ctx: ConverterContext, s: StreamScratch, out: AgentEvent[]): void {
  const state = update.status.state;
  const source: StatusSource = { ...update, raw: update };
  if (isFailureState(state)) return finishWith(s, out, failureEvent(source, ctx));
  if (state === 'completed') return finishWith(s, out, completedFromStatus(update, ctx, s));
  if (isInterruptedState(state)) return finish(s, out, interruptedEvents(source, ctx));
  const recoverable = recoverableEvent(source, ctx);
  if (recoverable) {
    out.push(recoverable);
    return;
  }
  const text = statusDelta(s, update.status.message, false);
  if (text === '') return;
  const id = pickId(readErrorMetadata(statusMetadata(source)).llmResponseId, update.status.message?.messageId);
  out.push(chunk(ctx, s, text, id, update, state));
}

/**
 * `convertStream` of the default converter. Text follows A2A's `append` rule per artifact: an update
 * with `append: true` extends its artifact, any other replaces it; each artifact-update's text is a
 * `chat.completion.chunk` (`replace: true` when it replaces an artifact seen before). `completed` → `chat.completion` whose text is every artifact's final
 * text (joined with newlines, as for a unary Task), else the status message's text. A Task item (a
 * snapshot) yields, per artifact, only the text past what was seen (an artifact that no longer
 * begins with it is emitted whole, replacing). Status message text (`working` and other non-final states) →
 * a chunk carrying only what extends the previous status text (agents that resend a growing
 * message: in Task snapshots, or under the same message id), else the whole text. failed/rejected/canceled → one terminal
 * error event; interrupted → `task.status` with `done: true` (preceded by a recoverable error event
 * when error metadata is there); a structured error on a non-terminal update → recoverable event
 * (`done: false`). After a `done` event every later item yields nothing. The answer is kept up to
 * `ctx.accumulate` characters (1 MiB by default; `false`: none): past that only positions are kept,
 * and the final `chat.completion` carries the status message's text (if any), marked
 * `answerOmitted`, never the artifacts' text (not even a completed Task's own). Never throws.
 */
export function convertStreamItem(item: StreamEvent, ctx: ConverterContext): AgentEvent[] {
  const out: AgentEvent[] = [];
  convertStreamInto(item, ctx, scratchOf(ctx), out);
  return out;
}

/**
 * {@link convertStreamItem} with the call's scratch `s` at hand, appending to `out` (the event API
 * reads a whole batch into one list this way: no list per item, no scratch lookup per item).
 */
export function convertStreamInto(item: StreamEvent, ctx: ConverterContext, s: StreamScratch, out: AgentEvent[]): void {
  if (s.ended) return;
  if (item.kind !== 'message') {
    s.taskId = item.kind === 'task' ? item.id : item.taskId;
    s.contextId = item.contextId;
  }
  switch (item.kind) {
    case 'message':
      return finishWith(s, out, messageEvent(item, ctx));
    case 'artifact-update':
      return onArtifact(item, ctx, s, out);
    case 'status-update':
      s.lastState = item.status.state;
      return onStatus(item, ctx, s, out);
    case 'task':
      s.lastState = item.status.state;
      return onTask(item, ctx, s, out);
  }
}

/**
 * `end` of the default converter: a stream that closed before a terminal or interrupted state yields
 * one terminal error event: type `protocol_error`, code `stream_incomplete`, source `path`. Never throws.
 */
export function endStream(ctx: ConverterContext): AgentEvent[] {
  const s = scratchOf(ctx);
  if (s.ended) return [];
  s.ended = true;
  const event: AgentEvent = {
    id: pickId(),
    object: 'error',
    done: true,
    partial: false,
    error: {
      type: 'protocol_error',
      source: 'path',
      code: 'stream_incomplete',
      message: `stream ended before the task reached a terminal or interrupted state (last state: ${s.lastState ?? 'none'})`,
      retryable: false,
      ambiguous: false,
    },
    agent: ctx.agent,
  };
  if (s.taskId !== undefined) event.taskId = s.taskId;
  if (s.contextId !== undefined) event.contextId = s.contextId;
  return [event];
}
