/**
 * This SDK's results → what `@a2a-js/sdk` 1.x's own transports return for the same answer: the SDK's
 * own decoders (`Task.fromJSON`, …) applied to the v1.0 ProtoJSON of the answer. An object read from
 * a v1.0 agent over JSON-RPC or HTTP+JSON is decoded from its wire form as received (`raw`), exactly as
 * the official transport decodes it; anything else (an event a resumed stream rebuilt, an answer read
 * over gRPC or from a v0.3 agent) from its v1.0 encoding.
 */
import type {
  AgentCard as SdkAgentCard,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  Message as SdkMessage,
  StreamResponse,
  Task as SdkTask,
  TaskPushNotificationConfig as SdkPushConfig,
} from '@a2a-js/sdk';
import type { ClientProtocol } from '../../client/endpoint.js';
import type { AgentCard, SendResult, StreamEvent, Task } from '../../protocol/model.js';
import type { ListTasksResult, TaskPushNotificationConfig } from '../../protocol/method-params.js';
import { eventToV1, listTasksToV1, taskPushConfigToV1, taskToV1, V1_STREAM_MEMBER } from '../../protocol/v1/encode-results.js';
import { cardForSdks } from '../card-resolver.js';
import type { SdkV1 } from './sdk.js';

/** Turns results of one client (one protocol) into the SDK's objects. */
export class V1Results {
  readonly #wire: boolean;

  constructor(
    readonly sdk: SdkV1,
    protocol: ClientProtocol,
  ) {
    this.#wire = protocol.version === '1.0' && protocol.binding !== 'GRPC';
  }

  #json(e: StreamEvent): unknown {
    return this.#wire && e.raw !== undefined ? e.raw : eventToV1(e);
  }

  /** A send result → `Task` or `Message`. */
  sendResult(r: SendResult): SdkTask | SdkMessage {
    return r.kind === 'task' ? this.task(r) : this.sdk.root.Message.fromJSON(this.#json(r));
  }

  /** A task → `Task`. */
  task(t: Task): SdkTask {
    return this.sdk.root.Task.fromJSON(this.#json(t));
  }

  /** A stream item → `StreamResponse`. */
  streamResponse(e: StreamEvent): StreamResponse {
    return this.sdk.root.StreamResponse.fromJSON({ [V1_STREAM_MEMBER[e.kind]]: this.#json(e) });
  }

  /** A `listTasks` page → `ListTasksResponse`. */
  listTasks(r: ListTasksResult): ListTasksResponse {
    return this.sdk.root.ListTasksResponse.fromJSON(listTasksToV1(r, (t) => (this.#wire && t.raw !== undefined ? (t.raw as Record<string, unknown>) : taskToV1(t))));
  }

  /** A push config → `TaskPushNotificationConfig`. */
  pushConfig(c: TaskPushNotificationConfig): SdkPushConfig {
    return this.sdk.root.TaskPushNotificationConfig.fromJSON(this.#wire && c.raw !== undefined ? c.raw : taskPushConfigToV1(c));
  }

  /** The push configs of a task → `ListTaskPushNotificationConfigsResponse`. */
  pushConfigs(list: TaskPushNotificationConfig[]): ListTaskPushNotificationConfigsResponse {
    return { configs: list.map((c) => this.pushConfig(c)), nextPageToken: '' };
  }

  /**
   * A card (`getExtendedAgentCard`) → `AgentCard`, decoded from the card as served; a v0.3 card gets
   * its interfaces as `supportedInterfaces` first (what the official legacy transport's converter gives).
   */
  card(c: AgentCard): SdkAgentCard {
    return this.sdk.root.AgentCard.fromJSON(cardForSdks(c));
  }
}
