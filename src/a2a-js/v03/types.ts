/**
 * The shapes of `@a2a-js/sdk` 0.3's transport interface, written out here: a framework's nested copy
 * of the 0.3 SDK (`@google/adk` has one) cannot be imported by name, and 0.3's types are the v0.3 JSON
 * objects themselves.
 */
import type { SdkRequestOptions } from '../call-options.js';

/** A v0.3 JSON object (Task, Message, event, card) as the 0.3 SDK types it. */
export type V03Json = Record<string, unknown>;

/** `MessageSendParams`. */
export interface V03MessageSendParams {
  /** The v0.3 message (`kind: 'message'`, `parts` with `kind`). */
  message: unknown;
  /** Send configuration. */
  configuration?: {
    /** Media types the caller accepts. */
    acceptedOutputModes?: string[];
    /** How many history messages to return. */
    historyLength?: number;
    /** Where to push updates. */
    pushNotificationConfig?: V03PushConfig;
    /** `false`: return once the task exists. */
    blocking?: boolean;
  };
  /** Extension data. */
  metadata?: Record<string, unknown>;
}

/** `PushNotificationConfig`. */
export interface V03PushConfig {
  /** The config's id. */
  id?: string;
  /** The webhook. */
  url: string;
  /** A token the agent sends back. */
  token?: string;
  /** How the agent authenticates to the webhook. */
  authentication?: {
    /** The schemes it uses (`Bearer`, …). */
    schemes: string[];
    /** The credentials it sends. */
    credentials?: string;
  };
}

/** `TaskPushNotificationConfig`. */
export interface V03TaskPushConfig {
  /** The task. */
  taskId: string;
  /** The config. */
  pushNotificationConfig: V03PushConfig;
}

/** `TaskQueryParams` / `TaskIdParams` and the push-config id params. */
export interface V03TaskParams {
  /** The task id. */
  id: string;
  /** History messages to return (`getTask`). */
  historyLength?: number;
  /** Extension data. */
  metadata?: Record<string, unknown>;
  /** The push config (`get`/`delete…PushNotificationConfig`). */
  pushNotificationConfigId?: string;
}

/** `@a2a-js/sdk` 0.3's `Transport`. */
export interface TransportV03 {
  /** The extended card (`agent/getAuthenticatedExtendedCard`). */
  getExtendedAgentCard(options?: SdkRequestOptions): Promise<V03Json>;
  /** `message/send`. */
  sendMessage(params: V03MessageSendParams, options?: SdkRequestOptions): Promise<V03Json>;
  /** `message/stream`. */
  sendMessageStream(params: V03MessageSendParams, options?: SdkRequestOptions): AsyncGenerator<V03Json, void, undefined>;
  /** `tasks/pushNotificationConfig/set`. */
  setTaskPushNotificationConfig(params: V03TaskPushConfig, options?: SdkRequestOptions): Promise<V03Json>;
  /** `tasks/pushNotificationConfig/get`. */
  getTaskPushNotificationConfig(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json>;
  /** `tasks/pushNotificationConfig/list`. */
  listTaskPushNotificationConfig(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json[]>;
  /** `tasks/pushNotificationConfig/delete`. */
  deleteTaskPushNotificationConfig(params: V03TaskParams, options?: SdkRequestOptions): Promise<void>;
  /** `tasks/get`. */
  getTask(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json>;
  /** `tasks/cancel`. */
  cancelTask(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json>;
  /** `tasks/resubscribe`. */
  resubscribeTask(params: V03TaskParams, options?: SdkRequestOptions): AsyncGenerator<V03Json, void, undefined>;
}

/** `@a2a-js/sdk` 0.3's `TransportFactory`. */
export interface TransportFactoryV03 {
  /** `JSONRPC`, `HTTP+JSON` or `GRPC`. */
  readonly protocolName: string;
  /** The transport for the interface at `url` of `agentCard`. */
  create(url: string, agentCard: unknown): Promise<TransportV03>;
}
