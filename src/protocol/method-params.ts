/**
 * The parameters and results of the A2A methods in the version-independent model (re-exported by
 * `model.ts`): what callers write (`MessageInput`, the `*Params`) and push-notification configs.
 */
import type { Message, Metadata, Role, Task, TaskState } from './model.js';

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

