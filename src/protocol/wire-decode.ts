/**
 * Normalisation shared by both wire versions. Artifacts, tasks and stream updates have the same
 * structure in v1.0 and v0.3; only parts, messages and statuses differ, and each version supplies
 * those as a {@link WireDialect}. Decoders take the validated wire object itself (`checkWire`), keep it
 * in `raw`, and build model objects by assignment: optional fields are set only when present.
 */
import type { Artifact, Message, Part, Role, Task, TaskArtifactUpdateEvent, TaskStatus, TaskStatusUpdateEvent } from './model.js';

type Metadata = Record<string, unknown> | undefined;

/** A validated wire artifact of either version. */
export interface WireArtifact<P> {
  artifactId: string;
  name?: string | undefined;
  description?: string | undefined;
  parts: P[];
  extensions?: string[] | undefined;
  metadata?: Metadata;
}

/** A validated wire task of either version. */
export interface WireTask<P, M, S> {
  id: string;
  contextId: string;
  status: S;
  artifacts?: WireArtifact<P>[] | undefined;
  history?: M[] | undefined;
  metadata?: Metadata;
}

/** A validated wire status update of either version (`final` is v0.3 only). */
export interface WireStatusUpdate<S> {
  taskId: string;
  contextId: string;
  status: S;
  final?: boolean | undefined;
  metadata?: Metadata;
}

/** A validated wire artifact update of either version. */
export interface WireArtifactUpdate<P> {
  taskId: string;
  contextId: string;
  artifact: WireArtifact<P>;
  append?: boolean | undefined;
  lastChunk?: boolean | undefined;
  metadata?: Metadata;
}

/** The members a validated wire message of either version carries besides its id, role and parts. */
export interface WireMessageMembers {
  contextId?: string | undefined;
  taskId?: string | undefined;
  referenceTaskIds?: string[] | undefined;
  extensions?: string[] | undefined;
  metadata?: Metadata;
}

/**
 * A model message from its id, role and parts and the wire message's other members (`raw`: the wire
 * object). `emptyIdIsAbsent`: a `contextId` or `taskId` of `""` reads as absent (v0.3 servers send them).
 */
export function modelMessage(m: WireMessageMembers, messageId: string, role: Role, parts: Part[], emptyIdIsAbsent: boolean): Message {
  // `raw` in the literal: a property added after it would cost each object a second allocation.
  const out: Message = { kind: 'message', messageId, role, parts, raw: m };
  if (m.contextId !== undefined && !(emptyIdIsAbsent && m.contextId === '')) out.contextId = m.contextId;
  if (m.taskId !== undefined && !(emptyIdIsAbsent && m.taskId === '')) out.taskId = m.taskId;
  if (m.referenceTaskIds !== undefined) out.referenceTaskIds = m.referenceTaskIds;
  if (m.extensions !== undefined) out.extensions = m.extensions;
  if (m.metadata !== undefined) out.metadata = m.metadata;
  return out;
}

/** What differs between versions: how a part, a message and a status read. */
export interface WireDialect<P, M, S> {
  readonly part: (p: P) => Part;
  readonly message: (m: M) => Message;
  readonly status: (s: S) => TaskStatus;
  /** Status updates carry `final` (v0.3: omitted reads as false); v1.0 ends a stream by closing it. */
  readonly final: boolean;
}

/** The shared decoders for one version. */
export interface WireDecoders<P, M, S> {
  artifact(a: WireArtifact<P>): Artifact;
  task(t: WireTask<P, M, S>): Task;
  statusUpdate(u: WireStatusUpdate<S>): TaskStatusUpdateEvent;
  /** Omitted `append`/`lastChunk` read as false. */
  artifactUpdate(u: WireArtifactUpdate<P>): TaskArtifactUpdateEvent;
}

/** Builds the shared decoders for one version's dialect. */
export function wireDecoders<P, M, S>(d: WireDialect<P, M, S>): WireDecoders<P, M, S> {
  const artifact = (a: WireArtifact<P>): Artifact => {
    const out: Artifact = { artifactId: a.artifactId, parts: a.parts.map(d.part) };
    if (a.name !== undefined) out.name = a.name;
    if (a.description !== undefined) out.description = a.description;
    if (a.extensions !== undefined) out.extensions = a.extensions;
    if (a.metadata !== undefined) out.metadata = a.metadata;
    return out;
  };
  return {
    artifact,
    task: (t) => {
      const out: Task = { kind: 'task', id: t.id, contextId: t.contextId, status: d.status(t.status), raw: t };
      if (t.artifacts !== undefined) out.artifacts = t.artifacts.map(artifact);
      if (t.history !== undefined) out.history = t.history.map(d.message);
      if (t.metadata !== undefined) out.metadata = t.metadata;
      return out;
    },
    statusUpdate: (u) => {
      const out: TaskStatusUpdateEvent = { kind: 'status-update', taskId: u.taskId, contextId: u.contextId, status: d.status(u.status), raw: u };
      if (d.final) out.final = u.final ?? false;
      if (u.metadata !== undefined) out.metadata = u.metadata;
      return out;
    },
    artifactUpdate: (u) => {
      const out: TaskArtifactUpdateEvent = {
        kind: 'artifact-update',
        taskId: u.taskId,
        contextId: u.contextId,
        artifact: artifact(u.artifact),
        append: u.append ?? false,
        lastChunk: u.lastChunk ?? false,
        raw: u,
      };
      if (u.metadata !== undefined) out.metadata = u.metadata;
      return out;
    },
  };
}
