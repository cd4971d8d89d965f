/**
 * The one version-independent model of A2A objects. Both wire versions (v1.0 ProtoJSON and v0.3)
 * normalise into it, and requests are encoded from it. Every layer above `protocol/` uses only
 * these shapes. Objects received from the wire keep the wire object in `raw`, so unknown fields
 * and extensions are never lost. The agent card's shapes are in `card-model.ts` (re-exported here).
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
  kind: 'text';
  text: string;
  mediaType?: string;
  metadata?: Metadata;
}

/** File content, inline (`bytes`, base64) or by reference (`uri`). */
export interface FilePart {
  kind: 'file';
  file: { bytes?: string; uri?: string; name?: string; mimeType?: string };
  metadata?: Metadata;
}

/** Structured JSON content. */
export interface DataPart {
  kind: 'data';
  data: unknown;
  mediaType?: string;
  metadata?: Metadata;
}

/** One piece of content. v1.0 `text`/`raw`/`url`/`data` parts and v0.3 `kind` parts both map here. */
export type Part = TextPart | FilePart | DataPart;

/** A message between user and agent. */
export interface Message {
  kind: 'message';
  messageId: string;
  role: Role;
  parts: Part[];
  contextId?: string;
  taskId?: string;
  referenceTaskIds?: string[];
  extensions?: string[];
  metadata?: Metadata;
  /** The wire object this was read from. */
  raw?: unknown;
}

/** Where a task stands: its state, the agent's latest message about it, and when that was set. */
export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp?: string;
}

/** An output of a task. */
export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  extensions?: string[];
  metadata?: Metadata;
}

/** A unit of work at the agent, with its status, outputs and history (what `getTask` reads). */
export interface Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
  metadata?: Metadata;
  raw?: unknown;
}

/** A change of a task's status, from a stream. */
export interface TaskStatusUpdateEvent {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: TaskStatus;
  /** v0.3 only: the server marked this the last event. v1.0 ends a stream by closing it. */
  final?: boolean;
  metadata?: Metadata;
  raw?: unknown;
}

/** A new or extended artifact, from a stream. */
export interface TaskArtifactUpdateEvent {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Metadata;
  raw?: unknown;
}

/** What `sendMessage` resolves with. */
export type SendResult = Task | Message;
/** One item of `sendStreamingMessage` / `subscribeToTask`. */
export type StreamEvent = Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

/** A message as a caller writes it: `messageId` is generated and `role` defaults to `user`. */
export type MessageInput = Omit<Message, 'kind' | 'messageId' | 'role' | 'raw'> & { messageId?: string; role?: Role };

/**
 * How the agent authenticates when it calls the webhook: A2A 1.0.1 agents send
 * `Authorization: <scheme> <credentials>`. Written as v1.0 `authentication { scheme, credentials }`,
 * v0.3 `authentication { schemes: [scheme], credentials }`; read from either (a v0.3 list gives its
 * first scheme; the whole list stays in `raw`).
 */
export interface PushAuthentication {
  /** An HTTP authentication scheme (IANA registry), e.g. `Bearer`, `Basic`; case-insensitive. `''` when the agent sent none. */
  scheme: string;
  /** The credentials in the scheme's format (the token for `Bearer`). */
  credentials?: string;
}

/** Where an agent pushes task updates, and how it proves itself to the webhook. */
export interface PushNotificationConfig {
  /** Config id (v1.0 `id`, v0.3 `pushNotificationConfig.id`). */
  id?: string;
  url: string;
  /**
   * A token unique to this task or session, sent as is in both versions. v0.3 agents (and 1.0 agents
   * given no `authentication`) send it back in `X-A2A-Notification-Token`; 1.0.1 dropped that header.
   */
  token?: string;
  /** How the agent authenticates to the webhook (the 1.0.1 way; see {@link PushAuthentication}). */
  authentication?: PushAuthentication;
}

/** A push-notification config bound to a task. */
export interface TaskPushNotificationConfig {
  taskId: string;
  config: PushNotificationConfig;
  raw?: unknown;
}

/** How the agent should handle a sent message: output modes, history, blocking, push config. */
export interface SendMessageConfiguration {
  acceptedOutputModes?: string[];
  historyLength?: number;
  /** Wait for a terminal or interrupted state before answering (v0.3 `blocking`; v1.0 inverse of `returnImmediately`). */
  blocking?: boolean;
  pushNotificationConfig?: PushNotificationConfig;
}

/** Parameters of `sendMessage` / `sendStreamingMessage`. */
export interface SendMessageParams {
  message: MessageInput;
  configuration?: SendMessageConfiguration;
  metadata?: Metadata;
}

/** Parameters of `getTask`: the task id and how many history messages to return. */
export interface GetTaskParams {
  id: string;
  historyLength?: number;
}

/** Parameters of `cancelTask`. */
export interface CancelTaskParams {
  id: string;
  metadata?: Metadata;
}

/** Parameters of `subscribeToTask`: the task to follow. */
export interface SubscribeToTaskParams {
  id: string;
}

/** v1.0 `ListTasks` filter. */
export interface ListTasksParams {
  contextId?: string;
  status?: TaskState;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  /** ISO 8601 timestamp: only tasks updated after it. */
  statusTimestampAfter?: string;
  includeArtifacts?: boolean;
}

/** One page of `listTasks`; `nextPageToken` asks for the next one (`tasks()` follows it for you). */
export interface ListTasksResult {
  tasks: Task[];
  nextPageToken?: string;
  pageSize?: number;
  totalSize?: number;
}

/** Parameters of `createTaskPushNotificationConfig`: the task and where to push its updates. */
export interface CreatePushConfigParams {
  taskId: string;
  config: PushNotificationConfig;
}

/** Parameters of `getTaskPushNotificationConfig`: the task, and which of its configs (`configId`). */
export interface GetPushConfigParams {
  taskId: string;
  configId?: string;
}

/** Parameters of `listTaskPushNotificationConfig`: the task whose configs to list. */
export interface ListPushConfigsParams {
  taskId: string;
}

/** Parameters of `deleteTaskPushNotificationConfig`. */
export interface DeletePushConfigParams {
  taskId: string;
  configId: string;
}

export type * from './card-model.js';
