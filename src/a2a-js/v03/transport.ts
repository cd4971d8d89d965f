import type { A2AClient } from '../../client/a2a-client.js';
import type { CallOptions } from '../../client/options.js';
import type { StreamEvent } from '../../protocol/model.js';
import type { PushNotificationConfig, SendMessageParams, TaskPushNotificationConfig } from '../../protocol/method-params.js';
import { opt } from '../../protocol/opt.js';
import { eventToV03, taskPushConfigToV03 } from '../../protocol/v03/encode-results.js';
import { messageFromV03 } from '../../protocol/v03/decode.js';
import { V03MessageSchema } from '../../protocol/v03/schemas.js';
import { parseWire } from '../../protocol/validate.js';
import { callOptionsOf, type SdkRequestOptions } from '../call-options.js';
import { sdkErrorV03 } from './errors.js';
import type { TransportV03, V03Json, V03MessageSendParams, V03PushConfig, V03TaskParams, V03TaskPushConfig } from './types.js';

function pushConfig(c: V03PushConfig): PushNotificationConfig {
  const auth = c.authentication;
  return {
    url: c.url,
    ...opt('id', c.id),
    ...opt('token', c.token),
    ...(auth === undefined ? {} : { authentication: { scheme: auth.schemes[0] ?? '', ...opt('credentials', auth.credentials) } }),
  };
}

/** `MessageSendParams` → send parameters. @throws A2AClientError `invalid-response` (field `message…`). */
function sendParams(p: V03MessageSendParams): SendMessageParams {
  const { kind: _kind, raw: _raw, ...message } = messageFromV03(parseWire(V03MessageSchema, p.message, 'message'));
  const c = p.configuration;
  const configuration = c && {
    ...opt('acceptedOutputModes', c.acceptedOutputModes),
    ...opt('historyLength', c.historyLength),
    ...opt('blocking', c.blocking),
    ...(c.pushNotificationConfig === undefined ? {} : { pushNotificationConfig: pushConfig(c.pushNotificationConfig) }),
  };
  return { message, ...opt('configuration', configuration), ...opt('metadata', p.metadata) };
}

/**
 * An `@a2a-js/sdk` 0.3 `Transport` whose every call runs through an `A2AClient` (deadline, classified
 * retries, per-agent breaker and budget, exact stream resume). Returns the v0.3 JSON objects the
 * official 0.3 transport returns for the same answers (from a v0.3 JSON-RPC agent: the objects as
 * received; otherwise their v0.3 encoding), and throws what it throws (see `errors.ts`).
 */
export class ResilientTransportV03 implements TransportV03 {
  readonly #client: A2AClient;
  readonly #wire: boolean;

  constructor(client: A2AClient) {
    this.#client = client;
    this.#wire = client.protocol.version === '0.3' && client.protocol.binding === 'JSONRPC';
  }

  #json(e: StreamEvent): V03Json {
    return this.#wire && isJson(e.raw) ? e.raw : eventToV03(e);
  }

  #push(c: TaskPushNotificationConfig): V03Json {
    return this.#wire && isJson(c.raw) ? c.raw : taskPushConfigToV03(c);
  }

  async #unary<T>(method: string, options: SdkRequestOptions | undefined, run: (call: CallOptions) => Promise<T>): Promise<T> {
    try {
      return await run(callOptionsOf(options));
    } catch (error) {
      throw sdkErrorV03(error, this.#client.protocol, { method, signal: options?.signal });
    }
  }

  async *#stream(method: string, options: SdkRequestOptions | undefined, open: (call: CallOptions) => AsyncIterable<StreamEvent>): AsyncGenerator<V03Json, void, undefined> {
    let midStream = false;
    try {
      for await (const event of open(callOptionsOf(options))) {
        midStream = true;
        yield this.#json(event);
      }
    } catch (error) {
      throw sdkErrorV03(error, this.#client.protocol, { method, signal: options?.signal, stream: true, midStream });
    }
  }

  getExtendedAgentCard(options?: SdkRequestOptions): Promise<V03Json> {
    return this.#unary('agent/getAuthenticatedExtendedCard', options, async (call) => {
      const raw = (await this.#client.getExtendedAgentCard(call)).raw;
      return isJson(raw) ? raw : {};
    });
  }

  sendMessage(params: V03MessageSendParams, options?: SdkRequestOptions): Promise<V03Json> {
    return this.#unary('message/send', options, async (call) => this.#json(await this.#client.sendMessage(sendParams(params), call)));
  }

  sendMessageStream(params: V03MessageSendParams, options?: SdkRequestOptions): AsyncGenerator<V03Json, void, undefined> {
    return this.#stream('message/stream', options, (call) => this.#client.sendStreamingMessage(sendParams(params), call));
  }

  setTaskPushNotificationConfig(params: V03TaskPushConfig, options?: SdkRequestOptions): Promise<V03Json> {
    return this.#unary('tasks/pushNotificationConfig/set', options, async (call) =>
      this.#push(await this.#client.createTaskPushNotificationConfig({ taskId: params.taskId, config: pushConfig(params.pushNotificationConfig) }, call)),
    );
  }

  getTaskPushNotificationConfig(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json> {
    return this.#unary('tasks/pushNotificationConfig/get', options, async (call) =>
      this.#push(await this.#client.getTaskPushNotificationConfig({ taskId: params.id, ...opt('configId', params.pushNotificationConfigId) }, call)),
    );
  }

  listTaskPushNotificationConfig(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json[]> {
    return this.#unary('tasks/pushNotificationConfig/list', options, async (call) =>
      (await this.#client.listTaskPushNotificationConfig({ taskId: params.id }, call)).map((c) => this.#push(c)),
    );
  }

  deleteTaskPushNotificationConfig(params: V03TaskParams, options?: SdkRequestOptions): Promise<void> {
    return this.#unary('tasks/pushNotificationConfig/delete', options, (call) =>
      this.#client.deleteTaskPushNotificationConfig({ taskId: params.id, configId: params.pushNotificationConfigId ?? '' }, call),
    );
  }

  getTask(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json> {
    return this.#unary('tasks/get', options, async (call) => this.#json(await this.#client.getTask({ id: params.id, ...opt('historyLength', params.historyLength) }, call)));
  }

  cancelTask(params: V03TaskParams, options?: SdkRequestOptions): Promise<V03Json> {
    return this.#unary('tasks/cancel', options, async (call) => this.#json(await this.#client.cancelTask({ id: params.id, ...opt('metadata', params.metadata) }, call)));
  }

  resubscribeTask(params: V03TaskParams, options?: SdkRequestOptions): AsyncGenerator<V03Json, void, undefined> {
    return this.#stream('tasks/resubscribe', options, (call) => this.#client.subscribeToTask({ id: params.id }, call));
  }
}

function isJson(value: unknown): value is V03Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
