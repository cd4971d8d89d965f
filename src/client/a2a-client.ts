import type { AgentEvent } from '../convert/agent-event.js';
import type { EventConverter } from '../convert/converter.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AttemptContext, UnaryMethod, UnaryMethods, Binding, StreamMethod, StreamMethods } from '../protocol/binding.js';
import { parseAgentCard, selectInterface } from '../protocol/card.js';
import { createBinding } from '../protocol/create-binding.js';
import type {
  AgentCard,
  CancelTaskParams,
  CreatePushConfigParams,
  DeletePushConfigParams,
  GetPushConfigParams,
  GetTaskParams,
  ListPushConfigsParams,
  ListTasksParams,
  ListTasksResult,
  ProtocolBinding,
  ProtocolVersion,
  SendMessageParams,
  SendResult,
  StreamEvent,
  SubscribeToTaskParams,
  Task,
  TaskPushNotificationConfig,
} from '../protocol/model.js';
import { createResilience, type Resilience } from '../resilience/pipeline.js';
import { resumableStream } from '../resilience/stream-resume.js';
import { createEngine } from '../transport/create-engine.js';
import { DEFAULT_LIMITS, DEFAULT_TIMEOUTS, type HttpEngine, type Limits, type Timeouts } from '../transport/engine.js';
import { DEADLINE_HEADER, deadlineHeaderValue } from '../coordinator/deadline-header.js';
import { fetchAgentCard, type CachedCard } from './card-resolver.js';
import { invokeEvents, streamEvents } from './event-api.js';
import { deferredIterable } from '../protocol/deferred-iterable.js';
import { flatten } from './flatten.js';
import { mergeHeaders, resolveHeaders } from './headers.js';
import { paramsFromInput, resolveSendParams, type AgentInput } from './input.js';
import type { CallOptions, ClientOptions } from './options.js';
import { resolveConverter } from '../convert/registry.js';

/** Methods that can be repeated without changing the outcome: retried after ambiguous failures. */
const IDEMPOTENT: ReadonlySet<UnaryMethod | StreamMethod> = new Set<UnaryMethod | StreamMethod>([
  'getTask',
  'listTasks',
  'cancelTask',
  'getTaskPushNotificationConfig',
  'listTaskPushNotificationConfig',
  'deleteTaskPushNotificationConfig',
  'getExtendedAgentCard',
  'subscribeToTask',
]);

interface Connected {
  engine: HttpEngine;
  cached: CachedCard;
  baseUrl: string;
}
const connected = new WeakMap<ClientOptions, Connected>();

/** The protocol version, binding and endpoint a client talks to. */
export interface ClientProtocol {
  version: ProtocolVersion;
  binding: ProtocolBinding;
  url: string;
}

/**
 * A client for one remote A2A agent. Protocol-level methods resolve with normalised protocol objects
 * and throw an `A2AClientError` once resilience gives up; `invoke` and `stream` never throw for a
 * remote failure: it arrives as an event with `error` set.
 */
export class A2AClient {
  /** The agent's card, normalised. */
  readonly card: AgentCard;
  /** The agent's name (from its card). */
  readonly name: string;
  /** What was negotiated from the card (or forced with `options.protocol`). */
  readonly protocol: ClientProtocol;
  /** Resolved timeout layers (defaults filled in). */
  readonly timeouts: Readonly<Timeouts>;
  readonly #options: ClientOptions;
  readonly #limits: Limits;
  readonly #engine: HttpEngine;
  readonly #binding: Binding;
  readonly #resilience: Resilience;
  readonly #converter: EventConverter;
  #cached: CachedCard | undefined;
  readonly #baseUrl: string | undefined;
  /** `options.headers` lower-cased once, when they are a record (a function is called per attempt). */
  readonly #staticHeaders: Record<string, string>;

  /**
   * Fetches the agent card from `baseUrl` (`/.well-known/agent-card.json`, then `/.well-known/agent.json`),
   * validates it and picks the protocol version and binding.
   * @throws A2AClientError kind `card` (missing or invalid card, naming the field), `unsupported` (no
   * interface this client speaks), or a transport kind.
   */
  static async connect(baseUrl: string, options: ClientOptions = {}): Promise<A2AClient> {
    const engine = createEngine(options);
    try {
      const cached = await fetchAgentCard(baseUrl, {
        engine,
        headers: await resolveHeaders(options.headers, undefined),
        timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
        limits: { ...DEFAULT_LIMITS, ...options.limits },
      });
      const key = { ...options };
      connected.set(key, { engine, cached, baseUrl });
      return new A2AClient(cached.card, key);
    } catch (error) {
      await engine.close();
      throw error;
    }
  }

  /**
   * A client from a card you already have: the card as served (JSON) or as returned by another
   * client's `card`.
   * @throws A2AClientError kind `card` or `unsupported`.
   */
  constructor(agentCard: unknown, options: ClientOptions = {}) {
    const handoff = connected.get(options);
    connected.delete(options);
    this.card = handoff ? handoff.cached.card : isNormalisedCard(agentCard) ? agentCard : parseAgentCard(agentCard);
    this.name = this.card.name;
    this.protocol = selectInterface(this.card, options.protocol);
    this.timeouts = Object.freeze({ ...DEFAULT_TIMEOUTS, ...options.timeouts });
    this.#options = options;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#engine = handoff?.engine ?? createEngine(options);
    this.#cached = handoff?.cached;
    this.#baseUrl = handoff?.baseUrl;
    this.#binding = createBinding(this.protocol.version, this.protocol.binding);
    this.#resilience = createResilience(new URL(this.protocol.url).origin, this.name, {
      retry: options.retry,
      circuitBreaker: options.circuitBreaker,
      maxConcurrent: options.maxConcurrent,
      maxQueued: options.maxQueued,
      onEvent: options.onEvent,
    });
    this.#converter = resolveConverter(this.card, options);
    this.#staticHeaders = typeof options.headers === 'function' ? {} : mergeHeaders(options.headers);
  }

  /** Sends a message; resolves with the Task or Message the agent answers with. */
  sendMessage(params: SendMessageParams, call: CallOptions = {}): Promise<SendResult> {
    return this.#unary('sendMessage', resolveSendParams(params), call);
  }

  /**
   * Sends a message and yields the agent's updates as they arrive. A dropped or idle stream is
   * resubscribed within the deadline without losing or repeating events; an agent that does not
   * stream answers with the single result of a send.
   * @throws A2AClientError once resilience gives up.
   */
  sendStreamingMessage(params: SendMessageParams, call: CallOptions = {}): AsyncIterable<StreamEvent> {
    return flatten(this.#sendStreaming(params, call));
  }

  /** Reads a task. */
  getTask(params: GetTaskParams, call: CallOptions = {}): Promise<Task> {
    return this.#unary('getTask', params, call);
  }

  /**
   * Lists tasks (v1.0).
   * @throws A2AClientError kind `unsupported` on a v0.3 agent.
   */
  listTasks(params: ListTasksParams = {}, call: CallOptions = {}): Promise<ListTasksResult> {
    return this.#unary('listTasks', params, call);
  }

  /** Asks the agent to cancel a task; resolves with the task as it is afterwards. */
  cancelTask(params: CancelTaskParams, call: CallOptions = {}): Promise<Task> {
    return this.#unary('cancelTask', params, call);
  }

  /** Follows a running task: a snapshot first, then its updates (v0.3: `tasks/resubscribe`). */
  subscribeToTask(params: SubscribeToTaskParams, call: CallOptions = {}): AsyncIterable<StreamEvent> {
    return flatten(this.#stream('subscribeToTask', params, call));
  }

  /** Registers where the agent pushes updates of a task. */
  createTaskPushNotificationConfig(params: CreatePushConfigParams, call: CallOptions = {}): Promise<TaskPushNotificationConfig> {
    return this.#unary('createTaskPushNotificationConfig', params, call);
  }

  /** Reads one push-notification config of a task. */
  getTaskPushNotificationConfig(params: GetPushConfigParams, call: CallOptions = {}): Promise<TaskPushNotificationConfig> {
    return this.#unary('getTaskPushNotificationConfig', params, call);
  }

  /** Lists the push-notification configs of a task. */
  listTaskPushNotificationConfig(params: ListPushConfigsParams, call: CallOptions = {}): Promise<TaskPushNotificationConfig[]> {
    return this.#unary('listTaskPushNotificationConfig', params, call);
  }

  /** Deletes a push-notification config of a task. */
  deleteTaskPushNotificationConfig(params: DeletePushConfigParams, call: CallOptions = {}): Promise<void> {
    return this.#unary('deleteTaskPushNotificationConfig', params, call);
  }

  /** The card the agent shows authenticated callers (send credentials with `options.headers`). */
  getExtendedAgentCard(call: CallOptions = {}): Promise<AgentCard> {
    return this.#unary('getExtendedAgentCard', {}, call);
  }

  /**
   * Sends `input` and resolves with the converted events. Never throws for a remote failure: it is
   * the last event, with `error` set (`isTerminalError(event)`).
   */
  invoke(input: AgentInput, call: CallOptions = {}): Promise<AgentEvent[]> {
    return invokeEvents(this.name, this.card, this.#converter, () => this.sendMessage(paramsFromInput(input), call));
  }

  /**
   * Streams `input`'s answer as converted events. Never throws for a remote failure: it is the last
   * event, with `error` set. Nothing follows a terminal error.
   */
  stream(input: AgentInput, call: CallOptions = {}): AsyncIterable<AgentEvent> {
    return streamEvents(this.name, this.card, this.#converter, () => this.#sendStreaming(paramsFromInput(input), call));
  }

  /**
   * Fetches the card again when its cache lifetime (`Cache-Control: max-age`) ran out, revalidating
   * with `If-None-Match`. The negotiated protocol does not change; create a new client for that.
   * @throws A2AClientError kind `unsupported` for a client built from an in-memory card.
   */
  async refreshCard(call: CallOptions = {}): Promise<AgentCard> {
    if (!this.#baseUrl) {
      throw new A2AClientError({ kind: 'unsupported', message: 'this client was built from a card, not a URL', agent: this.name });
    }
    this.#cached = await fetchAgentCard(
      this.#baseUrl,
      {
        engine: this.#engine,
        headers: await resolveHeaders(this.#options.headers, call.headers),
        timeouts: { ...this.timeouts, ...call.timeouts },
        limits: this.#limits,
        ...(call.signal ? { signal: call.signal } : {}),
      },
      this.#cached,
    );
    return this.#cached.card;
  }

  /** Closes the connections this client opened (not a caller-supplied dispatcher). */
  async close(): Promise<void> {
    this.#resilience.dispose();
    await this.#engine.close();
  }

  #callTimeouts(call: CallOptions): { timeouts: Readonly<Timeouts>; deadline: number } {
    const timeouts = call.timeouts === undefined ? this.timeouts : { ...this.timeouts, ...call.timeouts };
    return { timeouts, deadline: performance.now() + timeouts.totalMs };
  }

  /** One attempt's context; synchronous unless `options.headers` is a function (called per attempt). */
  #attemptContext(call: CallOptions, signal: AbortSignal | undefined, timeouts: Readonly<Timeouts>, deadline: number): AttemptContext | Promise<AttemptContext> {
    const headers = this.#options.headers;
    if (typeof headers === 'function') {
      return resolveHeaders(headers, call.headers).then((resolved) => this.#context(resolved, signal, timeouts, deadline));
    }
    const merged = call.headers === undefined ? this.#staticHeaders : mergeHeaders(this.#staticHeaders, call.headers);
    return this.#context(merged, signal, timeouts, deadline);
  }

  #context(headers: Record<string, string>, signal: AbortSignal | undefined, timeouts: Readonly<Timeouts>, deadline: number): AttemptContext {
    const ctx: AttemptContext = { engine: this.#engine, url: this.protocol.url, headers, timeouts, deadline, limits: this.#limits };
    if (signal !== undefined) ctx.signal = signal;
    if (this.#options.propagateDeadline) ctx.headers = { ...headers, [DEADLINE_HEADER]: deadlineHeaderValue(deadline - performance.now()) };
    if (this.#options.extensions) ctx.extensions = this.#options.extensions;
    return ctx;
  }

  #unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], call: CallOptions): Promise<UnaryMethods[M]['result']> {
    const { timeouts, deadline } = this.#callTimeouts(call);
    const binding = this.#binding;
    // The engine watches the caller's signal and the deadline itself; the pipeline's scope cuts
    // anything else an attempt waits on (a headers function). Its own signal is never created here.
    return this.#resilience.execute({ method, idempotent: IDEMPOTENT.has(method), deadline, signal: call.signal, retry: call.retry }, () => {
      const ctx = this.#attemptContext(call, call.signal, timeouts, deadline);
      return ctx instanceof Promise ? ctx.then((c) => binding.unary(method, params, c)) : binding.unary(method, params, ctx);
    });
  }

  /** A send's updates in batches: the resumable stream, or the single result of an agent that does not stream. */
  #sendStreaming(params: SendMessageParams, call: CallOptions): AsyncIterable<StreamEvent[]> {
    const resolved = resolveSendParams(params);
    if (this.card.capabilities.streaming === false) return single(async () => [await this.#unary('sendMessage', resolved, call)]);
    return this.#stream('sendStreamingMessage', resolved, call);
  }

  #stream<M extends StreamMethod>(method: M, params: StreamMethods[M], call: CallOptions): AsyncIterable<StreamEvent[]> {
    const { timeouts, deadline } = this.#callTimeouts(call);
    const context = async (signal: AbortSignal): Promise<AttemptContext> => this.#attemptContext(call, signal, timeouts, deadline);
    const binding = this.#binding;
    const open =
      <N extends StreamMethod>(name: N, p: StreamMethods[N]) =>
      (signal: AbortSignal): AsyncIterable<StreamEvent[]> =>
        deferredIterable(async () => binding.stream(name, p, await context(signal)));
    return resumableStream({
      agent: this.name,
      method,
      idempotent: IDEMPOTENT.has(method),
      deadline,
      signal: call.signal,
      open: open(method, params),
      resubscribe: (taskId, signal) => open('subscribeToTask', { id: taskId })(signal),
      getTask: async (taskId, signal) => binding.unary('getTask', { id: taskId }, await context(signal)),
      resilience: this.#resilience,
      retry: call.retry,
      onEvent: this.#options.onEvent,
    });
  }
}

function isNormalisedCard(value: unknown): value is AgentCard {
  return typeof value === 'object' && value !== null && Array.isArray((value as { interfaces?: unknown }).interfaces) && 'raw' in value;
}

async function* single<T>(get: () => Promise<T>): AsyncIterable<T> {
  yield await get();
}
