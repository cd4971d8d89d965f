import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResult,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { RequestOptions, Transport } from '@a2a-js/sdk/client';
import type { A2AClient } from '../../client/a2a-client.js';
import type { CallOptions } from '../../client/options.js';
import type { StreamEvent } from '../../protocol/model.js';
import { callOptionsOf } from '../call-options.js';
import { sdkErrorV1 } from './errors.js';
import { cancelTaskParams, createPushParams, getTaskParams, listTasksParams, pushConfigIds, sendParams } from './params.js';
import { V1Results } from './results.js';
import type { SdkV1 } from './sdk.js';

/**
 * An `@a2a-js/sdk` 1.x `Transport` whose every call runs through an `A2AClient`: its deadline,
 * classified retries, per-agent breaker and budget, and exact stream resume. Returns what the official
 * transport returns for the same answers and throws what it throws (see `errors.ts`).
 */
export class ResilientTransport implements Transport {
  readonly #client: A2AClient;
  readonly #sdk: SdkV1;
  readonly #results: V1Results;

  constructor(client: A2AClient, sdk: SdkV1) {
    this.#client = client;
    this.#sdk = sdk;
    this.#results = new V1Results(sdk, client.protocol);
  }

  /** `JSONRPC`, `HTTP+JSON` or `GRPC`. */
  get protocolName(): string {
    return this.#client.protocol.binding;
  }

  /** The A2A version spoken with the agent: `1.0`, or `0.3` for a legacy interface. */
  get protocolVersion(): string {
    return this.#client.protocol.version;
  }

  async #unary<T>(method: string, options: RequestOptions | undefined, run: (call: CallOptions) => Promise<T>): Promise<T> {
    try {
      return await run(callOptionsOf(options));
    } catch (error) {
      throw await sdkErrorV1(this.#sdk, error, this.#client.protocol, { method, signal: options?.signal });
    }
  }

  async *#stream(method: string, options: RequestOptions | undefined, open: (call: CallOptions) => AsyncIterable<StreamEvent>): AsyncGenerator<StreamResponse, void, undefined> {
    let midStream = false;
    try {
      for await (const event of open(callOptionsOf(options))) {
        midStream = true;
        yield this.#results.streamResponse(event);
      }
    } catch (error) {
      throw await sdkErrorV1(this.#sdk, error, this.#client.protocol, { method, signal: options?.signal, midStream });
    }
  }

  getExtendedAgentCard(_params: GetExtendedAgentCardRequest, options?: RequestOptions): Promise<AgentCard> {
    return this.#unary('GetExtendedAgentCard', options, async (call) => this.#results.card(await this.#client.getExtendedAgentCard(call)));
  }

  sendMessage(params: SendMessageRequest, options?: RequestOptions): Promise<SendMessageResult> {
    return this.#unary('SendMessage', options, async (call) => this.#results.sendResult(await this.#client.sendMessage(sendParams(this.#sdk, params), call)));
  }

  sendMessageStream(params: SendMessageRequest, options?: RequestOptions): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#stream('SendStreamingMessage', options, (call) => this.#client.sendStreamingMessage(sendParams(this.#sdk, params), call));
  }

  createTaskPushNotificationConfig(params: TaskPushNotificationConfig, options?: RequestOptions): Promise<TaskPushNotificationConfig> {
    return this.#unary('CreateTaskPushNotificationConfig', options, async (call) =>
      this.#results.pushConfig(await this.#client.createTaskPushNotificationConfig(createPushParams(params), call)),
    );
  }

  getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest, options?: RequestOptions): Promise<TaskPushNotificationConfig> {
    return this.#unary('GetTaskPushNotificationConfig', options, async (call) =>
      this.#results.pushConfig(await this.#client.getTaskPushNotificationConfig(pushConfigIds(params), call)),
    );
  }

  listTaskPushNotificationConfig(params: ListTaskPushNotificationConfigsRequest, options?: RequestOptions): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.#unary('ListTaskPushNotificationConfigs', options, async (call) =>
      this.#results.pushConfigs(await this.#client.listTaskPushNotificationConfig({ taskId: params.taskId }, call)),
    );
  }

  deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest, options?: RequestOptions): Promise<void> {
    return this.#unary('DeleteTaskPushNotificationConfig', options, (call) => this.#client.deleteTaskPushNotificationConfig(pushConfigIds(params), call));
  }

  getTask(params: GetTaskRequest, options?: RequestOptions): Promise<Task> {
    return this.#unary('GetTask', options, async (call) => this.#results.task(await this.#client.getTask(getTaskParams(params), call)));
  }

  cancelTask(params: CancelTaskRequest, options?: RequestOptions): Promise<Task> {
    return this.#unary('CancelTask', options, async (call) => this.#results.task(await this.#client.cancelTask(cancelTaskParams(params), call)));
  }

  listTasks(params: ListTasksRequest, options?: RequestOptions): Promise<ListTasksResponse> {
    return this.#unary('ListTasks', options, async (call) => this.#results.listTasks(await this.#client.listTasks(listTasksParams(this.#sdk, params), call)));
  }

  resubscribeTask(params: SubscribeToTaskRequest, options?: RequestOptions): AsyncGenerator<StreamResponse, void, undefined> {
    return this.#stream('SubscribeToTask', options, (call) => this.#client.subscribeToTask({ id: params.id }, call));
  }
}
