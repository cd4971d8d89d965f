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

/** A message as a caller writes it: `messageId` is generated and `role` defaults to `user`. */
export type MessageInput = Omit<Message, 'kind' | 'messageId' | 'role' | 'raw'> & {
  /** The message's id; generated when absent (once: every retry of the send carries the same one). */
  messageId?: string;
  /** Who writes it. @default 'user' */
  role?: Role;
};

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
  /** The webhook the agent posts task updates to. */
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
  /** The task whose updates are pushed. */
  taskId: string;
  /** Where and how they are pushed. */
  config: PushNotificationConfig;
  /** The wire object this was read from. */
  raw?: unknown;
}

/** How the agent should handle a sent message: output modes, history, blocking, push config. */
export interface SendMessageConfiguration {
  /** Media types the caller accepts in the answer. */
  acceptedOutputModes?: string[];
  /** How many history messages the answer's task should carry. */
  historyLength?: number;
  /** Wait for a terminal or interrupted state before answering (v0.3 `blocking`; v1.0 inverse of `returnImmediately`). */
  blocking?: boolean;
  /** A webhook for the task's updates, registered with the send. */
  pushNotificationConfig?: PushNotificationConfig;
}

/** Parameters of `sendMessage` / `sendStreamingMessage`. */
export interface SendMessageParams {
  /** The message to send. */
  message: MessageInput;
  /** How the agent should handle it. */
  configuration?: SendMessageConfiguration;
  /** Extension data of the request. */
  metadata?: Metadata;
}

/** Parameters of `getTask`: the task id and how many history messages to return. */
export interface GetTaskParams {
  /** The task id. */
  id: string;
  /** How many history messages to return. */
  historyLength?: number;
}

/** Parameters of `cancelTask`. */
export interface CancelTaskParams {
  /** The task id. */
  id: string;
  /** Extension data of the request. */
  metadata?: Metadata;
}

/** Parameters of `subscribeToTask`: the task to follow. */
export interface SubscribeToTaskParams {
  /** The task id. */
  id: string;
}

/** v1.0 `ListTasks` filter. */
export interface ListTasksParams {
  /** Only tasks of this context. */
  contextId?: string;
  /** Only tasks in this state. */
  status?: TaskState;
  /** Most tasks per page. */
  pageSize?: number;
  /** The page to read: a `nextPageToken` from the previous page. */
  pageToken?: string;
  /** How many history messages each task carries. */
  historyLength?: number;
  /** ISO 8601 timestamp: only tasks updated after it. */
  statusTimestampAfter?: string;
  /** Whether tasks carry their artifacts. */
  includeArtifacts?: boolean;
}

/** One page of `listTasks`; `nextPageToken` asks for the next one (`tasks()` follows it for you). */
export interface ListTasksResult {
  /** The tasks of this page. */
  tasks: Task[];
  /** Token of the next page; absent or empty on the last one. */
  nextPageToken?: string;
  /** The page size the agent used. */
  pageSize?: number;
  /** How many tasks match, over all pages. */
  totalSize?: number;
}

/** Parameters of `createTaskPushNotificationConfig`: the task and where to push its updates. */
export interface CreatePushConfigParams {
  /** The task whose updates to push. */
  taskId: string;
  /** Where and how to push them. */
  config: PushNotificationConfig;
}

/** Parameters of `getTaskPushNotificationConfig`: the task, and which of its configs (`configId`). */
export interface GetPushConfigParams {
  /** The task. */
  taskId: string;
  /** Which of its configs. */
  configId?: string;
}

/** Parameters of `listTaskPushNotificationConfig`: the task whose configs to list. */
export interface ListPushConfigsParams {
  /** The task. */
  taskId: string;
}

/** Parameters of `deleteTaskPushNotificationConfig`. */
export interface DeletePushConfigParams {
  /** The task. */
  taskId: string;
  /** The config to delete. */
  configId: string;
}

export type * from './card-model.js';
