import type {
  Artifact,
  Message,
  Metadata,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatusUpdateEvent,
} from '../../src/protocol/model.js';
import type { ConverterContext } from '../../src/convert/converter.js';

/** What a status carries in a test. */
export interface StatusSpec {
  outer?: Metadata;
  mirror?: Metadata;
  text?: string;
  messageId?: string;
  artifacts?: Artifact[];
}

/** Builds model objects as they come out of one wire version (raw shape and flags differ). */
export interface Origin {
  name: '1.0' | '0.3';
  task(state: TaskState, spec?: StatusSpec): Task;
  status(state: TaskState, spec?: StatusSpec): TaskStatusUpdateEvent;
  /** An artifact-update with one text part; `append` defaults to true (a chunk extending the artifact). */
  artifact(text: string, opts?: { id?: string; metadata?: Metadata; lastChunk?: boolean; append?: boolean }): TaskArtifactUpdateEvent;
  message(text: string, metadata?: Metadata): Message;
}

const V1_STATE = (s: TaskState): string => `TASK_STATE_${s.toUpperCase().replace('-', '_')}`;

function statusMessage(spec: StatusSpec, v1: boolean): { model?: Message; raw?: unknown } {
  if (spec.text === undefined && spec.mirror === undefined) return {};
  const parts = spec.text === undefined ? [] : [{ kind: 'text' as const, text: spec.text }];
  const messageId = spec.messageId ?? 'status-msg-1';
  const raw = v1
    ? { messageId, role: 'ROLE_AGENT', parts: parts.map((p) => ({ text: p.text, mediaType: 'text/plain' })), metadata: spec.mirror }
    : { kind: 'message', messageId, role: 'agent', parts, metadata: spec.mirror };
  const model: Message = { kind: 'message', messageId, role: 'agent', parts, raw };
  if (spec.mirror !== undefined) model.metadata = spec.mirror;
  return { model, raw };
}

function makeOrigin(name: '1.0' | '0.3'): Origin {
  const v1 = name === '1.0';
  const stateRaw = (s: TaskState) => (v1 ? V1_STATE(s) : s);
  return {
    name,
    task(state, spec = {}) {
      const msg = statusMessage(spec, v1);
      const raw = v1
        ? { id: 'task-1', contextId: 'ctx-1', status: { state: stateRaw(state), message: msg.raw }, artifacts: spec.artifacts, metadata: spec.outer }
        : { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state, message: msg.raw }, artifacts: spec.artifacts ?? [], metadata: spec.outer };
      const task: Task = { kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state }, raw };
      if (msg.model) task.status.message = msg.model;
      if (spec.artifacts) task.artifacts = spec.artifacts;
      if (spec.outer) task.metadata = spec.outer;
      return task;
    },
    status(state, spec = {}) {
      const msg = statusMessage(spec, v1);
      const terminal = ['completed', 'failed', 'canceled', 'rejected', 'input-required', 'auth-required'].includes(state);
      const raw = v1
        ? { statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: stateRaw(state), message: msg.raw }, metadata: spec.outer } }
        : { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state, message: msg.raw }, final: terminal, metadata: spec.outer };
      const update: TaskStatusUpdateEvent = { kind: 'status-update', taskId: 'task-1', contextId: 'ctx-1', status: { state }, raw };
      if (!v1) update.final = terminal;
      if (msg.model) update.status.message = msg.model;
      if (spec.outer) update.metadata = spec.outer;
      return update;
    },
    artifact(text, opts = {}) {
      const artifact: Artifact = { artifactId: opts.id ?? 'art-1', parts: [{ kind: 'text', text }] };
      if (opts.metadata) artifact.metadata = opts.metadata;
      // v1.0 omits a false `append` (ProtoJSON); v0.3 always sends it.
      const append = opts.append ?? true;
      const raw = v1
        ? { artifactUpdate: { taskId: 'task-1', contextId: 'ctx-1', artifact: { artifactId: artifact.artifactId, parts: [{ text }], metadata: opts.metadata }, ...(append ? { append: true } : {}), ...(opts.lastChunk ? { lastChunk: true } : {}) } }
        : { kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx-1', artifact: { ...artifact, parts: [{ kind: 'text', text }] }, append, lastChunk: opts.lastChunk ?? false };
      const update: TaskArtifactUpdateEvent = { kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx-1', artifact, raw };
      if (!v1) {
        update.append = append;
        update.lastChunk = opts.lastChunk ?? false;
      } else {
        if (append) update.append = true;
        if (opts.lastChunk) update.lastChunk = true;
      }
      return update;
    },
    message(text, metadata) {
      const raw = v1
        ? { message: { messageId: 'msg-1', role: 'ROLE_AGENT', parts: [{ text }], metadata } }
        : { kind: 'message', messageId: 'msg-1', role: 'agent', parts: [{ kind: 'text', text }], metadata };
      const message: Message = { kind: 'message', messageId: 'msg-1', role: 'agent', parts: [{ kind: 'text', text }], contextId: 'ctx-1', raw };
      if (metadata) message.metadata = metadata;
      return message;
    },
  };
}

/** Both wire generations; tests run once per origin. */
export const ORIGINS: readonly Origin[] = [makeOrigin('1.0'), makeOrigin('0.3')];

/** A minimal normalised card. */
export const CARD = {
  name: 'test-agent',
  interfaces: [{ url: 'http://127.0.0.1:1/', binding: 'JSONRPC', version: '1.0' }],
  capabilities: {},
  skills: [],
  raw: {},
};

/** A fresh converter context. */
export function newCtx(): ConverterContext {
  return { agent: 'test-agent', card: CARD, state: {} };
}
