/**
 * Short-hand stream steps and their resolution into full model events bound to one task.
 */
import type { Artifact, Message, Metadata, StreamEvent, Task, TaskState } from '../src/protocol/model.js';

/** A stream step: a full model event, or a short-hand filled in with the task's ids. */
export type StreamStep =
  | StreamEvent
  /** A status update. */
  | {
      /** The task's new state. */
      status: TaskState;
      /** Text of the status message, if any. */
      text?: string;
      /** Metadata of the update. */
      metadata?: Metadata;
      /** Metadata of the status message. */
      messageMetadata?: Metadata;
    }
  /** An artifact update; a string becomes a text artifact. */
  | {
      /** The artifact, or its text. */
      artifact: string | Artifact;
      /** Extend the previous artifact instead of replacing it. */
      append?: boolean;
      /** Mark it the artifact's last piece. */
      lastChunk?: boolean;
    }
  /** An agent message with this text. */
  | {
      /** The text. */
      message: string;
    };

/** Ids a scenario binds its events to. */
export interface TaskIds {
  /** The task's id. */
  taskId: string;
  /** Its context's id. */
  contextId: string;
}

let counter = 0;
/** A fresh id with a readable prefix. */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** An agent message with one text part. */
export function agentMessage(text: string, ids: Partial<TaskIds>, metadata?: Metadata): Message {
  return {
    kind: 'message',
    messageId: newId('msg'),
    role: 'agent',
    parts: [{ kind: 'text', text }],
    ...(ids.contextId ? { contextId: ids.contextId } : {}),
    ...(ids.taskId ? { taskId: ids.taskId } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

/** A task in `state` with no artifacts. */
export function taskIn(state: TaskState, ids: TaskIds): Task {
  return { kind: 'task', id: ids.taskId, contextId: ids.contextId, status: { state, timestamp: new Date().toISOString() } };
}

/** A text artifact. */
export function textArtifact(text: string, artifactId = newId('art')): Artifact {
  return { artifactId, parts: [{ kind: 'text', text }] };
}

/**
 * Resolves steps into events. A stream that does not start with a Task or Message gets a
 * `submitted` Task snapshot first, as real servers send.
 */
export function resolveSteps(steps: readonly StreamStep[], ids: TaskIds): StreamEvent[] {
  const out: StreamEvent[] = steps.map((s) => resolveStep(s, ids));
  const first = out[0];
  if (first === undefined || (first.kind !== 'task' && first.kind !== 'message')) out.unshift(taskIn('submitted', ids));
  return out;
}

function resolveStep(s: StreamStep, ids: TaskIds): StreamEvent {
  if ('kind' in s) return s;
  if ('status' in s) {
    const msg = s.text === undefined ? undefined : agentMessage(s.text, ids, s.messageMetadata);
    return {
      kind: 'status-update',
      ...ids,
      status: { state: s.status, timestamp: new Date().toISOString(), ...(msg ? { message: msg } : {}) },
      ...(s.metadata ? { metadata: s.metadata } : {}),
    };
  }
  if ('artifact' in s) {
    const artifact = typeof s.artifact === 'string' ? textArtifact(s.artifact, 'artifact-1') : s.artifact;
    return {
      kind: 'artifact-update',
      ...ids,
      artifact,
      ...(s.append ? { append: true } : {}),
      ...(s.lastChunk ? { lastChunk: true } : {}),
    };
  }
  return agentMessage(s.message, ids);
}
