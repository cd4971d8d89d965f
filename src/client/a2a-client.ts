import type { AgentEvent } from '../convert/agent-event.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { Binding } from '../protocol/binding.js';
import { parseAgentCard } from '../protocol/card.js';
import type { AgentCard, SendResult, StreamEvent, Task } from '../protocol/model.js';
import type {
  CancelTaskParams,
  CreatePushConfigParams,
  DeletePushConfigParams,
  GetPushConfigParams,
  GetTaskParams,
  ListPushConfigsParams,
  ListTasksParams,
  ListTasksResult,
  SendMessageParams,
  SubscribeToTaskParams,
  TaskPushNotificationConfig,
} from '../protocol/method-params.js';
import type { Resilience } from '../resilience/pipeline.js';
import { createEngine } from '../transport/create-engine.js';
import type { HttpEngine } from '../transport/engine.js';
import type { Timeouts } from '../transport/settings.js';
import type { AgentCalls } from './agent-calls.js';
import { clientParts } from './client-parts.js';
import { isNormalisedCard, type ClientStreams } from './client-streams.js';
import { fetchCardFor, type CachedCard } from './card-resolver.js';
import type { ClientProtocol } from './endpoint.js';
import { openConversation, type Conversation } from './conversation.js';
import type { ConversationInit } from './conversation-state.js';
import { flatten } from './flatten.js';
import { resolveSendParams, type AgentInput } from './input.js';
import type { CallOptions, ClientOptions } from './options.js';
import type { TaskCallsDeps } from './task-calls.js';
import { taskPages } from './task-pages.js';
import { waitForTask } from './wait-for-task.js';
import { cleanUpAfter } from '../util/clean-up-after.js';

/**
 * What {@link A2AClient.connect} found, handed to the constructor: module-private, so only `connect`
 * can build one (a card a caller passes is never taken for it).
 */
class Discovery {
  constructor(
    readonly engine: HttpEngine,
    readonly cached: CachedCard,
    readonly baseUrl: string,
  ) {}
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
  readonly #engine: HttpEngine;
  readonly #resilience: Resilience;
  readonly #binding: Binding;
  readonly #calls: AgentCalls;
  readonly #streams: ClientStreams;
  readonly #tasks: TaskCallsDeps;
  #cached: CachedCard | undefined;
  readonly #baseUrl: string | undefined;
  #closing: Promise<void> | undefined;

  /**
   * Fetches the agent card from `baseUrl` (`/.well-known/agent-card.json`, then `/.well-known/agent.json`),
   * validates it and picks the protocol version and binding. Discovery is bounded like any call: one
   * deadline (`call.timeouts` over `options.timeouts`, `totalMs`) over every card URL, attempt, retry
   * wait and the headers function, and `call.signal`. Refused connections, timeouts, 5xx and 429 are
   * retried (Retry-After honoured within the deadline) per `options.retry` / `call.retry`.
   * With `options.cardSignature`, the card's JWS signatures are verified before it is used.
   * Card redirects are followed as `options.redirects` says; a relative interface URL in the card
   * resolves against the URL that served it (after redirects).
   * @throws A2AClientError naming the agent URL (`agent`, and in the message), each attempt in
   * `attempts`: kind `card` (missing or invalid card, naming the field; refused with an HTTP status;
   * with `cardSignature`, unsigned or failing verification — field `signatures…`, the reason in the
   * message), `unsupported` (no interface this client speaks, credentials in the URL, or a
   * `sharedState` not made by `redisStateStore`), `deadline-exceeded`, `aborted`, or a
   * transport kind.
   */
  static async connect(baseUrl: string, options: ClientOptions = {}, call: CallOptions = {}): Promise<A2AClient> {
    const engine = createEngine(options);
    try {
      const cached = await fetchCardFor(baseUrl, engine, options, call);
      return discovered(new Discovery(engine, cached, baseUrl), options);
    } catch (error) {
      // The discovery failure is what the caller gets, even when closing fails too (Bun's own undici has no `close`).
      await cleanUpAfter(error, () => engine.close());
      throw error;
    }
  }

  /**
   * A client from a card you already have: the card as served (JSON) or as returned by another
   * client's `card`.
   * @throws A2AClientError kind `card` (also for a relative interface URL: there is no card URL to
   * resolve it against), or `unsupported` (also for a `sharedState` not made by `redisStateStore`).
   */
  constructor(agentCard: unknown, options: ClientOptions = {}) {
    const found = agentCard instanceof Discovery ? agentCard : undefined;
    this.card = found ? found.cached.card : isNormalisedCard(agentCard) ? agentCard : parseAgentCard(agentCard);
    this.name = this.card.name;
    const origin = found && { engine: found.engine, baseUrl: found.baseUrl, finalUrl: found.cached.finalUrl };
    const parts = clientParts(this.card, options, origin);
    this.protocol = parts.protocol;
    this.timeouts = parts.timeouts;
    this.#options = options;
    this.#engine = parts.engine;
    this.#cached = found?.cached;
    this.#baseUrl = found?.baseUrl;
    this.#binding = parts.binding;
    this.#resilience = parts.resilience;
    this.#calls = parts.calls;
    this.#tasks = parts.tasks;
    this.#streams = parts.streams;
  }

  /** Sends a message; resolves with the Task or Message the agent answers with. */
  sendMessage(params: SendMessageParams, call: CallOptions = {}): Promise<SendResult> {
    return this.#calls.unary('sendMessage', resolveSendParams(params), call);
  }

  /**
   * Sends a message and yields the agent's updates as they arrive. A dropped or idle stream is
   * resubscribed within the deadline without losing or repeating events; an agent that does not
   * stream answers with the single result of a send.
   * @throws A2AClientError once resilience gives up.
   */
  sendStreamingMessage(params: SendMessageParams, call: CallOptions = {}): AsyncIterable<StreamEvent> {
    return flatten(this.#streams.sendBatches(params, call));
  }

  /** Reads a task. */
  getTask(params: GetTaskParams, call: CallOptions = {}): Promise<Task> {
    return this.#calls.unary('getTask', params, call);
  }

  /**
   * Lists tasks (v1.0).
   * @throws A2AClientError kind `unsupported` on a v0.3 agent.
   */
  listTasks(params: ListTasksParams = {}, call: CallOptions = {}): Promise<ListTasksResult> {
    return this.#calls.unary('listTasks', params, call);
  }

  /** Asks the agent to cancel a task; resolves with the task as it is afterwards. */
  cancelTask(params: CancelTaskParams, call: CallOptions = {}): Promise<Task> {
    return this.#calls.unary('cancelTask', params, call);
  }

  /** Follows a running task: a snapshot first, then its updates (v0.3: `tasks/resubscribe`). */
  subscribeToTask(params: SubscribeToTaskParams, call: CallOptions = {}): AsyncIterable<StreamEvent> {
    return flatten(this.#calls.stream('subscribeToTask', params, call, { taskId: params.id }));
  }

  /** Registers where the agent pushes updates of a task. */
  createTaskPushNotificationConfig(params: CreatePushConfigParams, call: CallOptions = {}): Promise<TaskPushNotificationConfig> {
    return this.#calls.unary('createTaskPushNotificationConfig', params, call);
  }

  /** Reads one push-notification config of a task. */
  getTaskPushNotificationConfig(params: GetPushConfigParams, call: CallOptions = {}): Promise<TaskPushNotificationConfig> {
    return this.#calls.unary('getTaskPushNotificationConfig', params, call);
  }

  /** Lists the push-notification configs of a task. */
  listTaskPushNotificationConfig(params: ListPushConfigsParams, call: CallOptions = {}): Promise<TaskPushNotificationConfig[]> {
    return this.#calls.unary('listTaskPushNotificationConfig', params, call);
  }

  /** Deletes a push-notification config of a task. */
  deleteTaskPushNotificationConfig(params: DeletePushConfigParams, call: CallOptions = {}): Promise<void> {
    return this.#calls.unary('deleteTaskPushNotificationConfig', params, call);
  }

  /** The card the agent shows authenticated callers (send credentials with `options.headers`). */
  getExtendedAgentCard(call: CallOptions = {}): Promise<AgentCard> {
    return this.#calls.unary('getExtendedAgentCard', {}, call);
  }

  /**
   * Sends `input` and resolves with the converted events. Never throws for a remote failure: it is
   * the last event, with `error` set (`isTerminalError(event)`).
   */
  invoke(input: AgentInput, call: CallOptions = {}): Promise<AgentEvent[]> {
    return this.#streams.invoke(input, call);
  }

  /**
   * Streams `input`'s answer as converted events. Never throws for a remote failure: it is the last
   * event, with `error` set. Nothing follows a terminal error.
   */
  stream(input: AgentInput, call: CallOptions = {}): AsyncIterable<AgentEvent> {
    return this.#streams.stream(input, call);
  }

  /**
   * A multi-turn conversation with this agent: each turn carries the context and the open task of
   * the previous answers (see {@link Conversation}).
   * @throws A2AClientError kind `unsupported` for an `init` that is not `{ contextId? }` or a
   * `toJSON()` result this client reads, naming the field.
   */
  conversation(init?: ConversationInit): Conversation {
    return openConversation(this.#streams.conversationPort(), init);
  }

  /**
   * The events of an existing task (started by this process or another), as `stream` gives them: its
   * current state first, then each update exactly once, until a terminal or interrupted state. Follows
   * the task with `subscribeToTask` where the card streams, else (or when the agent refuses, e.g. for
   * a task already terminal) by polling `getTask`. Never throws for a remote failure: an unknown task
   * ends with one terminal error event (`error.cause.a2aName === 'TaskNotFound'`).
   */
  resume(taskId: string, call: CallOptions = {}): AsyncIterable<AgentEvent> {
    return this.#streams.resume(taskId, call);
  }

  /**
   * Resolves with the task once it is terminal or interrupted (`input-required`, `auth-required`),
   * following it as `resume` does; polls back off from 25 ms to 2 s, honouring Retry-After.
   * @throws A2AClientError kind `deadline-exceeded` (the last seen state in the message), `aborted`,
   * or the agent's error (TaskNotFound, …).
   */
  waitForTask(taskId: string, call: CallOptions = {}): Promise<Task> {
    return waitForTask(this.#tasks, taskId, call);
  }

  /**
   * Every task `listTasks` lists (v1.0), page after page; each page is its own call with its own
   * deadline and retries (end the iteration with `call.signal`).
   * @throws A2AClientError kind `unsupported` on v0.3; `invalid-response` when the agent repeats a page token.
   */
  tasks(params: ListTasksParams = {}, call: CallOptions = {}): AsyncIterable<Task> {
    return taskPages(this.#calls, this.name, params, call);
  }

  /**
   * Fetches the card again when its cache lifetime (`Cache-Control: max-age`) ran out, revalidating
   * with `If-None-Match`. The negotiated protocol does not change; create a new client for that.
   * Bounded and retried like {@link A2AClient.connect} (the call's `timeouts`, `signal`, `retry`); a
   * card fetched again is verified again when `cardSignature` is set.
   * @throws A2AClientError kind `unsupported` for a client built from an in-memory card; otherwise
   * as {@link A2AClient.connect}.
   */
  async refreshCard(call: CallOptions = {}): Promise<AgentCard> {
    if (!this.#baseUrl) {
      throw new A2AClientError({ kind: 'unsupported', message: 'this client was built from a card, not a URL', agent: this.name });
    }
    this.#cached = await fetchCardFor(this.#baseUrl, this.#engine, this.#options, call, this.#cached);
    return this.#cached.card;
  }

  /**
   * Closes the connections this client opened (not a caller-supplied dispatcher), after the cancels
   * `cancelOnAbort` sent that are still in flight have ended (each within its own 2 s deadline);
   * no cancel is sent after `close()` was called. Calling it again returns the same promise.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#calls.settleCancels();
      this.#resilience.dispose();
      await this.#binding.close?.();
      await this.#engine.close();
    })();
    return this.#closing;
  }
}

// Outside the class body on purpose: a class that names itself inside its body is bundled (esbuild) as
// `class _A2AClient`, and that name is what Node prints.
function discovered(discovery: Discovery, options: ClientOptions): A2AClient {
  return new A2AClient(discovery, options);
}
