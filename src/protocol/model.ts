/**
 * The one version-independent model of A2A objects. Both wire versions (v1.0 ProtoJSON and v0.3)
 * normalise into it, and requests are encoded from it. Every layer above `protocol/` uses only
 * these shapes. Objects received from the wire keep the wire object in `raw`, so unknown fields
 * and extensions are never lost. The agent card's shapes are in `card-model.ts` (re-exported here), the
 * methods' parameters and results, built on these shapes, in `method-params.ts`.
 */

/** Task lifecycle state, the same names for both versions. */
export type TaskState =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'auth-required'
  | 'completed'
  | 'failed'
  | 'canceled'
  | 'rejected'
  | 'unknown';

/** States after which a task never changes. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set(['completed', 'failed', 'canceled', 'rejected']);
/** States in which the task waits for the caller. */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set(['input-required', 'auth-required']);

/** Who wrote a message: the caller (`user`) or the remote agent (`agent`). */
export type Role = 'user' | 'agent';

/** Free-form extension data carried by messages, tasks and events (the wire `metadata` object). */
export type Metadata = Record<string, unknown>;

/** Text content. */
export interface TextPart {
  /** Always `text`. */
  kind: 'text';
  /** The text. */
  text: string;
  /** Its media type, when the agent gave one (e.g. `text/markdown`). */
  mediaType?: string;
  /** Extension data of the part. */
  metadata?: Metadata;
}

/** File content, inline (`bytes`, base64) or by reference (`uri`). */
export interface FilePart {
  /** Always `file`. */
  kind: 'file';
  /** The file: its content or address, and what it is. */
  file: {
    /** The content, base64-encoded. */
    bytes?: string;
    /** Where the content can be fetched. */
    uri?: string;
    /** The file's name. */
    name?: string;
    /** Its media type, e.g. `application/pdf`. */
    mimeType?: string;
  };
  /** Extension data of the part. */
  metadata?: Metadata;
}

/** Structured JSON content. */
export interface DataPart {
  /** Always `data`. */
  kind: 'data';
  /** The JSON value. */
  data: unknown;
  /** Its media type, when the agent gave one. */
  mediaType?: string;
  /** Extension data of the part. */
  metadata?: Metadata;
}

/** One piece of content. v1.0 `text`/`raw`/`url`/`data` parts and v0.3 `kind` parts both map here. */
export type Part = TextPart | FilePart | DataPart;

/** A message between user and agent. */
export interface Message {
  /** Always `message`. */
  kind: 'message';
  /** Unique id of the message (generated for messages you send). */
  messageId: string;
  /** Who wrote it. */
  role: Role;
  /** The content. */
  parts: Part[];
  /** The context (conversation) it belongs to. */
  contextId?: string;
  /** The task it belongs to, if any. */
  taskId?: string;
  /** Earlier tasks this message refers to. */
  referenceTaskIds?: string[];
  /** URIs of the A2A extensions that apply to it. */
  extensions?: string[];
  /** Extension data of the message. */
  metadata?: Metadata;
  /** The wire object this was read from. */
  raw?: unknown;
}

/** Where a task stands: its state, the agent's latest message about it, and when that was set. */
export interface TaskStatus {
  /** The task's lifecycle state. */
  state: TaskState;
  /** The agent's latest message about the task (a question in `input-required`, a reason in `failed`). */
  message?: Message;
  /** When the status was set (ISO 8601). */
  timestamp?: string;
}

/** An output of a task. */
export interface Artifact {
  /** Unique id of the artifact within its task. */
  artifactId: string;
  /** A name for people. */
  name?: string;
  /** A description for people. */
  description?: string;
  /** The content. */
  parts: Part[];
  /** URIs of the A2A extensions that apply to it. */
  extensions?: string[];
  /** Extension data of the artifact. */
  metadata?: Metadata;
}

/** A unit of work at the agent, with its status, outputs and history (what `getTask` reads). */
export interface Task {
  /** Always `task`. */
  kind: 'task';
  /** The task id. */
  id: string;
  /** The context (conversation) it belongs to. */
  contextId: string;
  /** Where it stands. */
  status: TaskStatus;
  /** What it has produced so far. */
  artifacts?: Artifact[];
  /** The messages exchanged in it, when asked for (`historyLength`). */
  history?: Message[];
  /** Extension data of the task. */
  metadata?: Metadata;
  /** The wire object this was read from. */
  raw?: unknown;
}

/** A change of a task's status, from a stream. */
export interface TaskStatusUpdateEvent {
  /** Always `status-update`. */
  kind: 'status-update';
  /** The task that changed. */
  taskId: string;
  /** Its context. */
  contextId: string;
  /** Its new status. */
  status: TaskStatus;
  /** v0.3 only: the server marked this the last event. v1.0 ends a stream by closing it. */
  final?: boolean;
  /** Extension data of the event. */
  metadata?: Metadata;
  /** The wire object this was read from. */
  raw?: unknown;
}

/** A new or extended artifact, from a stream. */
export interface TaskArtifactUpdateEvent {
  /** Always `artifact-update`. */
  kind: 'artifact-update';
  /** The task the artifact belongs to. */
  taskId: string;
  /** Its context. */
  contextId: string;
  /** The artifact, or the piece of it this event adds. */
  artifact: Artifact;
  /** `true`: the parts extend the artifact; `false` or absent: they replace it. */
  append?: boolean;
  /** The agent marked this the artifact's last piece. */
  lastChunk?: boolean;
  /** Extension data of the event. */
  metadata?: Metadata;
  /** The wire object this was read from. */
  raw?: unknown;
}

/** What `sendMessage` resolves with. */
export type SendResult = Task | Message;
/** One item of `sendStreamingMessage` / `subscribeToTask`. */
export type StreamEvent = Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

export type * from './card-model.js';
