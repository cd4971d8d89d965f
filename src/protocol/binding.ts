import type { HttpEngine } from '../transport/engine.js';
import type { Limits, Timeouts } from '../transport/settings.js';
import type { CallScope } from '../transport/call-scope.js';
import type * as P from './method-params.js';
import type * as M from './model.js';

/** `sendMessage` parameters after the client filled in `messageId` and `role`. */
export interface ResolvedSendParams {
  message: M.Message;
  configuration?: P.SendMessageConfiguration;
  metadata?: M.Metadata;
}

/** Unary methods: parameters and result, by protocol-independent name. */
export interface UnaryMethods {
  sendMessage: { params: ResolvedSendParams; result: M.SendResult };
  getTask: { params: P.GetTaskParams; result: M.Task };
  listTasks: { params: P.ListTasksParams; result: P.ListTasksResult };
  cancelTask: { params: P.CancelTaskParams; result: M.Task };
  createTaskPushNotificationConfig: { params: P.CreatePushConfigParams; result: P.TaskPushNotificationConfig };
  getTaskPushNotificationConfig: { params: P.GetPushConfigParams; result: P.TaskPushNotificationConfig };
  listTaskPushNotificationConfig: { params: P.ListPushConfigsParams; result: P.TaskPushNotificationConfig[] };
  deleteTaskPushNotificationConfig: { params: P.DeletePushConfigParams; result: void };
  getExtendedAgentCard: { params: Record<string, never>; result: M.AgentCard };
}

/** Streaming methods and their parameters. */
export interface StreamMethods {
  sendStreamingMessage: ResolvedSendParams;
  subscribeToTask: P.SubscribeToTaskParams;
}

export type UnaryMethod = keyof UnaryMethods;
export type StreamMethod = keyof StreamMethods;

/** Everything one attempt needs besides its parameters. */
export interface AttemptContext {
  engine: HttpEngine;
  /** The interface URL from the card. */
  url: string;
  /** Extra request headers (lower-case names), already resolved: auth, per-call headers, deadline. */
  headers: Record<string, string>;
  /** A2A extensions to announce (`A2A-Extensions`; v0.3 `X-A2A-Extensions`). */
  extensions?: string[];
  /** The call's scope (deadline and caller's signal), from the pipeline's attempt. */
  scope?: CallScope;
  timeouts: Pick<Timeouts, 'connectMs' | 'readMs' | 'streamIdleMs'>;
  limits: Limits;
}

/**
 * One wire binding of one protocol version: method names, request encoding, response and SSE
 * decoding into the model of `model.ts`. Every failure is an `A2AClientError`.
 */
export interface Binding {
  readonly version: M.ProtocolVersion;
  readonly binding: M.ProtocolBinding;
  /**
   * One unary call, one HTTP exchange.
   * @throws A2AClientError — transport kinds, `http`, `json-rpc`, `invalid-response`, `unsupported`.
   */
  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], ctx: AttemptContext): Promise<UnaryMethods[M]['result']>;
  /**
   * One streaming call. Events are yielded as they arrive, in the batches one network read completed
   * (never empty), so per-event work above stays synchronous; an error frame is thrown as the same
   * typed error a unary call would throw, after the events before it. Stopping early closes the connection.
   * @throws A2AClientError
   */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], ctx: AttemptContext): AsyncIterable<M.StreamEvent[]>;
  /** Releases what the binding holds (a gRPC channel lease); bindings over the HTTP engine hold nothing. */
  close?(): Promise<void>;
}
