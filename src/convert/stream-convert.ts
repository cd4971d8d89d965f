import type { Message, Metadata, StreamEvent, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '../protocol/model.js';
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
import { artifactsText, isFailureState, isInterruptedState, pickId, textOf } from './event-parts.js';
import { hasStructuredError, readErrorMetadata } from './response-error-from-metadata.js';
import { artifactErrorEvent, taskEvents } from './unary-convert.js';

/** Pieces of answer text joined into one block. */
const BLOCK = 256;

/** Per-call scratch of the default converter, kept in `ctx.state.defaultConverter`. */
export class StreamScratch {
  /** The answer text seen so far, in pieces (a long stream appends one per chunk; joined when read). */
  #pieces: string[] = [];
  /** Earlier pieces, joined into blocks of {@link BLOCK} (keeps the piece list short on long streams). */
  #blocks: string[] = [];
  /** Length of the answer text seen so far. */
  length = 0;
  /** How much of `text` was emitted as chunks. */
  emitted = 0;

  /** The answer text seen so far (artifact text). */
  get text(): string {
    if (this.#blocks.length === 0 && this.#pieces.length <= 1) return this.#pieces[0] ?? '';
    const whole = this.#blocks.join('') + this.#pieces.join('');
    this.#blocks = [];
    this.#pieces = [whole];
    return whole;
  }

  set text(value: string) {
    this.#blocks = [];
    this.#pieces = value === '' ? [] : [value];
    this.length = value.length;
  }

  /** Adds a piece of answer text. */
  append(piece: string): void {
    const pieces = this.#pieces;
    pieces.push(piece);
    this.length += piece.length;
    if (pieces.length === BLOCK) {
      this.#blocks.push(pieces.join(''));
      pieces.length = 0;
    }
  }

  /** A terminal or interrupted event was emitted: nothing follows. */
  ended = false;
  lastState: string | undefined;
  taskId: string | undefined;
  contextId: string | undefined;
}

const KEY = 'defaultConverter';

/** The scratch of this call, created on first use. */
export function scratchOf(ctx: ConverterContext): StreamScratch {
  const existing = ctx.state[KEY];
  if (existing instanceof StreamScratch) return existing;
  const fresh = new StreamScratch();
  ctx.state[KEY] = fresh;
  return fresh;
}

function chunk(
  ctx: ConverterContext,
  s: StreamScratch,
  text: string,
  id: string,
  raw: unknown,
  state?: AgentEvent['state'],
): AgentEvent {
  // The usual chunk (raw, task and context ids known, no state) is built in one literal: one shape.
  if (raw !== undefined && s.taskId !== undefined && s.contextId !== undefined && state === undefined) {
    return { id, object: 'chat.completion.chunk', done: false, partial: true, text, agent: ctx.agent, raw, taskId: s.taskId, contextId: s.contextId };
  }
  const event: AgentEvent = { id, object: 'chat.completion.chunk', done: false, partial: true, text, agent: ctx.agent };
  if (raw !== undefined) event.raw = raw;
  if (s.taskId !== undefined) event.taskId = s.taskId;
  if (s.contextId !== undefined) event.contextId = s.contextId;
  if (state !== undefined) event.state = state;
  return event;
}

/** Buffered answer text not yet emitted, as one chunk (or nothing). */
function flush(ctx: ConverterContext, s: StreamScratch): AgentEvent[] {
  if (s.emitted >= s.length) return [];
  const pending = s.text.slice(s.emitted);
  s.emitted = s.length;
  return [chunk(ctx, s, pending, pickId(), undefined)];
}

/** Marks the call ended after `events` if the last one is `done`. */
function finish(s: StreamScratch, events: AgentEvent[]): AgentEvent[] {
  if (events.at(-1)?.done === true) s.ended = true;
  return events;
}

/** The update's and its artifact's metadata, the artifact's winning key by key (`undefined` when neither has any). */
function artifactMetadata(update: TaskArtifactUpdateEvent): Metadata | undefined {
  const outer = update.metadata;
  const inner = update.artifact.metadata;
  if (outer === undefined) return inner;
  if (inner === undefined) return outer;
  return { ...outer, ...inner };
}

function onArtifact(update: TaskArtifactUpdateEvent, ctx: ConverterContext, s: StreamScratch): AgentEvent[] {
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
      return recoverable ? [...flush(ctx, s), recoverable] : [];
    }
    return finish(s, [...flush(ctx, s), artifactErrorEvent(artifact, update.taskId, update.contextId, update, ctx)]);
  }
  const text = textOf(update.artifact.parts);
  if (text === '') return [];
  const before = s.emitted < s.length ? flush(ctx, s) : undefined;
  s.append(text);
  s.emitted = s.length;
  const event = chunk(ctx, s, text, pickId(fields.llmResponseId, update.artifact.artifactId), update);
  if (before === undefined || before.length === 0) return [event];
  before.push(event);
  return before;
}

function completedFromStatus(update: TaskStatusUpdateEvent, ctx: ConverterContext, s: StreamScratch): AgentEvent {
  const statusText = textOf(update.status.message?.parts);
  const source: StatusSource = { ...update, raw: update };
  return {
    id: pickId(readErrorMetadata(statusMetadata(source)).llmResponseId, update.status.message?.messageId),
    object: 'chat.completion',
    done: true,
    partial: false,
    text: s.length > 0 ? s.text : statusText,
    taskId: update.taskId,
    contextId: update.contextId,
    state: 'completed',
    agent: ctx.agent,
    raw: update,
  };
}

function onStatus(update: TaskStatusUpdateEvent, ctx: ConverterContext, s: StreamScratch): AgentEvent[] {
  const state = update.status.state;
  const source: StatusSource = { ...update, raw: update };
  if (isFailureState(state)) return finish(s, [...flush(ctx, s), failureEvent(source, ctx)]);
  if (state === 'completed') return finish(s, [...flush(ctx, s), completedFromStatus(update, ctx, s)]);
  if (isInterruptedState(state)) return finish(s, [...flush(ctx, s), ...interruptedEvents(source, ctx)]);
  const recoverable = recoverableEvent(source, ctx);
  if (recoverable) return [...flush(ctx, s), recoverable];
  const text = textOf(update.status.message?.parts);
  if (text === '') return [];
  const id = pickId(readErrorMetadata(statusMetadata(source)).llmResponseId, update.status.message?.messageId);
  return [...flush(ctx, s), chunk(ctx, s, text, id, update, state)];
}

function onMessage(message: Message, ctx: ConverterContext, s: StreamScratch): AgentEvent[] {
  return finish(s, [...flush(ctx, s), messageEvent(message, ctx)]);
}

/**
 * `convertStream` of the default converter. Artifact text → `chat.completion.chunk` (and buffered for
 * the final answer); `working` status text → chunk; failed/rejected/canceled → buffered text flushed,
 * then one terminal error event; completed → `chat.completion` with the whole text; interrupted →
 * `task.status` with `done: true` (preceded by a recoverable error event when error metadata is
 * there); a structured error on a non-terminal update → recoverable event (`done: false`). After a
 * `done` event every later item yields nothing. Never throws.
 */
export function convertStreamItem(item: StreamEvent, ctx: ConverterContext): AgentEvent[] {
  const s = scratchOf(ctx);
  if (s.ended) return [];
  if (item.kind !== 'message') {
    s.taskId = item.kind === 'task' ? item.id : item.taskId;
    s.contextId = item.contextId;
  }
  switch (item.kind) {
    case 'message':
      return onMessage(item, ctx, s);
    case 'artifact-update':
      return onArtifact(item, ctx, s);
    case 'status-update':
      s.lastState = item.status.state;
      return onStatus(item, ctx, s);
    case 'task': {
      s.lastState = item.status.state;
      const state = item.status.state;
      if (state === 'completed' || isFailureState(state) || isInterruptedState(state)) {
        const before = isFailureState(state) ? flush(ctx, s) : [];
        return finish(s, [...before, ...taskEvents(item, ctx, s.text)]);
      }
      // A snapshot of a running task: its text so far is buffered, emitted before the next event.
      if (s.length === 0) s.text = artifactsText(item.artifacts);
      const source: StatusSource = { taskId: item.id, contextId: item.contextId, status: item.status, raw: item };
      if (item.metadata) source.metadata = item.metadata;
      const recoverable = recoverableEvent(source, ctx);
      return recoverable ? [recoverable] : [];
    }
  }
}

/**
 * `end` of the default converter: a stream that closed before a terminal or interrupted state yields
 * buffered text (if any) and one terminal error event: type `protocol_error`, code
 * `stream_incomplete`. Never throws.
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
      code: 'stream_incomplete',
      message: `stream ended before the task reached a terminal or interrupted state (last state: ${s.lastState ?? 'none'})`,
    },
    agent: ctx.agent,
  };
  if (s.taskId !== undefined) event.taskId = s.taskId;
  if (s.contextId !== undefined) event.contextId = s.contextId;
  return [...flush(ctx, s), event];
}
