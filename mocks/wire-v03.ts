/**
 * Encodes model objects as A2A v0.3 wire JSON. Two styles, as the official server writes them:
 * `jsonrpc` — `kind` on everything, lowercase states, `final` and `append`/`lastChunk` always present;
 * `proto` — the v0.3 REST (ProtoJSON) shape: `TASK_STATE_*`, `ROLE_*`, `content` instead of `parts`, `{ task | message | … }` wrappers.
 */
import type { Artifact, Message, Part, StreamEvent, Task, TaskStatus } from '../src/protocol/model.js';
import { TERMINAL_STATES } from '../src/protocol/model.js';
import { v1State, type WireObject } from './wire-v1.js';

/** Which v0.3 wire style to write (`grpc`: the proto shape with the proto's enum spelling `TASK_STATE_CANCELLED`). */
export type V03Style = 'jsonrpc' | 'proto' | 'grpc';

function part(p: Part, style: V03Style): WireObject {
  const meta = p.metadata ? { metadata: p.metadata } : {};
  if (style === 'jsonrpc') {
    if (p.kind === 'text') return { kind: 'text', text: p.text, ...meta };
    if (p.kind === 'data') return { kind: 'data', data: p.data, ...meta };
    return { kind: 'file', file: { ...p.file }, ...meta };
  }
  if (p.kind === 'text') return { text: p.text, ...meta };
  if (p.kind === 'data') return { data: { data: p.data }, ...meta };
  const f = p.file;
  return {
    file: {
      ...(f.bytes !== undefined ? { fileWithBytes: f.bytes } : { fileWithUri: f.uri ?? '' }),
      ...(f.mimeType ? { mimeType: f.mimeType } : {}),
    },
    ...meta,
  };
}

function message(m: Message, style: V03Style): WireObject {
  const ids = { ...(m.contextId ? { contextId: m.contextId } : {}), ...(m.taskId ? { taskId: m.taskId } : {}) };
  const meta = m.metadata ? { metadata: m.metadata } : {};
  const parts = m.parts.map((p) => part(p, style));
  if (style === 'jsonrpc') return { kind: 'message', messageId: m.messageId, role: m.role, parts, ...ids, ...meta };
  return { messageId: m.messageId, ...ids, role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT', content: parts, ...meta };
}

function status(s: TaskStatus, style: V03Style): WireObject {
  return {
    state: style === 'jsonrpc' ? s.state : style === 'grpc' && s.state === 'canceled' ? 'TASK_STATE_CANCELLED' : v1State(s.state),
    ...(s.message ? { message: message(s.message, style) } : {}),
    ...(s.timestamp ? { timestamp: s.timestamp } : {}),
  };
}

function artifact(a: Artifact, style: V03Style): WireObject {
  return {
    artifactId: a.artifactId,
    ...(a.name ? { name: a.name } : {}),
    ...(a.description ? { description: a.description } : {}),
    parts: a.parts.map((p) => part(p, style)),
    ...(a.metadata ? { metadata: a.metadata } : {}),
  };
}

function task(t: Task, style: V03Style): WireObject {
  const body = {
    id: t.id,
    contextId: t.contextId,
    status: status(t.status, style),
    ...(t.artifacts?.length ? { artifacts: t.artifacts.map((a) => artifact(a, style)) } : {}),
    ...(t.history?.length ? { history: t.history.map((m) => message(m, style)) } : {}),
    ...(t.metadata ? { metadata: t.metadata } : {}),
  };
  return style === 'jsonrpc' ? { kind: 'task', ...body } : body;
}

/**
 * Encodes a send result or stream item. `jsonrpc` style returns the bare object with `kind`
 * (`final` is true on a status update in a terminal or interrupted state unless the event says otherwise);
 * `proto` style wraps it as `{ task | message | statusUpdate | artifactUpdate }`.
 */
export function v03Event(e: StreamEvent, style: V03Style): WireObject {
  const rpc = style === 'jsonrpc';
  switch (e.kind) {
    case 'task':
      return rpc ? task(e, style) : { task: task(e, style) };
    case 'message':
      return rpc ? message(e, style) : { message: message(e, style) };
    case 'status-update': {
      const final = e.final ?? (TERMINAL_STATES.has(e.status.state) || e.status.state === 'input-required' || e.status.state === 'auth-required');
      const body = {
        taskId: e.taskId,
        contextId: e.contextId,
        status: status(e.status, style),
        ...(rpc || final ? { final } : {}),
        ...(e.metadata ? { metadata: e.metadata } : {}),
      };
      return rpc ? { kind: 'status-update', ...body } : { statusUpdate: body };
    }
    case 'artifact-update': {
      const body = {
        taskId: e.taskId,
        contextId: e.contextId,
        artifact: artifact(e.artifact, style),
        ...(rpc ? { append: e.append ?? false, lastChunk: e.lastChunk ?? false } : {}),
        ...(!rpc && e.append ? { append: true } : {}),
        ...(!rpc && e.lastChunk ? { lastChunk: true } : {}),
        ...(e.metadata ? { metadata: e.metadata } : {}),
      };
      return rpc ? { kind: 'artifact-update', ...body } : { artifactUpdate: body };
    }
  }
}

/** Encodes a Task alone (getTask / cancelTask results): bare in both styles. */
export function v03Task(t: Task, style: V03Style): WireObject {
  return task(t, style);
}
