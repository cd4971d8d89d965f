/**
 * Encodes model objects as A2A v1.0 ProtoJSON, the way the official server writes them:
 * `TASK_STATE_*`, `ROLE_*`, parts `{ text, mediaType }`, false/empty fields omitted, no `kind`, no `final`.
 */
import type { Artifact, Message, Part, StreamEvent, Task, TaskState, TaskStatus } from '../src/protocol/model.js';

/** A JSON object as written on the wire. */
export type WireObject = Record<string, unknown>;

/** `working` → `TASK_STATE_WORKING`. */
export function v1State(state: TaskState): string {
  return state === 'unknown' ? 'TASK_STATE_UNSPECIFIED' : `TASK_STATE_${state.toUpperCase().replace('-', '_')}`;
}

function v1Part(p: Part): WireObject {
  const meta = p.metadata ? { metadata: p.metadata } : {};
  if (p.kind === 'text') return { text: p.text, mediaType: p.mediaType ?? 'text/plain', ...meta };
  if (p.kind === 'data') return { data: p.data, mediaType: p.mediaType ?? 'application/json', ...meta };
  const f = p.file;
  return {
    ...(f.bytes !== undefined ? { raw: f.bytes } : { url: f.uri ?? '' }),
    ...(f.name ? { filename: f.name } : {}),
    ...(f.mimeType ? { mediaType: f.mimeType } : {}),
    ...meta,
  };
}

/** Encodes a Message. */
export function v1Message(m: Message): WireObject {
  return {
    messageId: m.messageId,
    ...(m.contextId ? { contextId: m.contextId } : {}),
    ...(m.taskId ? { taskId: m.taskId } : {}),
    role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    parts: m.parts.map(v1Part),
    ...(m.metadata ? { metadata: m.metadata } : {}),
  };
}

function v1Status(s: TaskStatus): WireObject {
  return {
    state: v1State(s.state),
    ...(s.message ? { message: v1Message(s.message) } : {}),
    ...(s.timestamp ? { timestamp: s.timestamp } : {}),
  };
}

function v1Artifact(a: Artifact): WireObject {
  return {
    artifactId: a.artifactId,
    ...(a.name ? { name: a.name } : {}),
    ...(a.description ? { description: a.description } : {}),
    parts: a.parts.map(v1Part),
    ...(a.metadata ? { metadata: a.metadata } : {}),
  };
}

/** Encodes a Task. */
export function v1Task(t: Task): WireObject {
  return {
    id: t.id,
    contextId: t.contextId,
    status: v1Status(t.status),
    ...(t.artifacts?.length ? { artifacts: t.artifacts.map(v1Artifact) } : {}),
    ...(t.history?.length ? { history: t.history.map(v1Message) } : {}),
    ...(t.metadata ? { metadata: t.metadata } : {}),
  };
}

/** Encodes a send result or stream item as a `StreamResponse` / `SendMessageResponse`: `{ task | message | statusUpdate | artifactUpdate }`. */
export function v1Wrapped(e: StreamEvent): WireObject {
  switch (e.kind) {
    case 'task':
      return { task: v1Task(e) };
    case 'message':
      return { message: v1Message(e) };
    case 'status-update':
      return {
        statusUpdate: {
          taskId: e.taskId,
          contextId: e.contextId,
          status: v1Status(e.status),
          ...(e.metadata ? { metadata: e.metadata } : {}),
        },
      };
    case 'artifact-update':
      return {
        artifactUpdate: {
          taskId: e.taskId,
          contextId: e.contextId,
          artifact: v1Artifact(e.artifact),
          ...(e.append ? { append: true } : {}),
          ...(e.lastChunk ? { lastChunk: true } : {}),
          ...(e.metadata ? { metadata: e.metadata } : {}),
        },
      };
  }
}
