/**
 * A multi-turn conversation with one agent: the ids a caller would otherwise carry by hand from one
 * answer to the next request, kept as plain data.
 */
import type { AgentEvent } from '../convert/agent-event.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { INTERRUPTED_STATES, type SendResult, type StreamEvent, type TaskState } from '../protocol/model.js';
import type { SendMessageParams } from '../protocol/method-params.js';
import { opt } from '../protocol/opt.js';
import { readConversationInit, type ConversationSnapshot } from './conversation-state.js';
import { paramsFromInput, type AgentInput } from './input.js';
import type { CallOptions } from './options.js';
import type { FollowOptions } from './task-calls.js';

/** What a conversation needs from its client: the send paths and the event API over them. */
export interface ConversationPort {
  /** The agent's name, for errors. */
  readonly agent: string;
  sendMessage(params: SendMessageParams, call: CallOptions): Promise<SendResult>;
  /** The streaming send in batches, as the client reads it (a non-streaming agent: one batch). */
  sendStreaming(params: SendMessageParams, call: CallOptions, follow?: FollowOptions): AsyncIterable<readonly StreamEvent[]>;
  /** `invoke`'s conversion of one send. */
  invoke(send: () => Promise<SendResult>, call: CallOptions): Promise<AgentEvent[]>;
  /** `stream`'s conversion of one streaming send, opened with what the event API tells the stream (`follow`). */
  stream(open: (follow: FollowOptions) => AsyncIterable<readonly StreamEvent[]>, call: CallOptions): AsyncIterable<AgentEvent>;
}

/** Set by the class's static block: the one way to call its private constructor. */
let open: (port: ConversationPort, init?: unknown) => Conversation;

/**
 * A conversation on `port` (the client's send paths), from `init` (`{ contextId? }` or a `toJSON()`
 * result): what `client.conversation(init)` returns. Not part of the public API.
 * @throws A2AClientError kind `unsupported` for an `init` it does not read, naming the field.
 */
export function openConversation(port: ConversationPort, init?: unknown): Conversation {
  return open(port, init);
}

/**
 * A conversation with one agent, made by `client.conversation(init)`. Each turn is the client's
 * method of the same name with the conversation's ids filled in where the caller left them out:
 * - `contextId`: the context the agent answered with (a task, a message, a stream's first event);
 * - `taskId`: the open task while it waits in `input-required` / `auth-required`, so the turn
 *   continues it;
 * - otherwise (the last task completed, failed, was canceled or rejected — or its state is not known
 *   to have settled) the turn starts a new task in the same context with `referenceTaskIds: [lastTaskId]`.
 *
 * Ids given in the input / params win: a turn that names a `taskId` is sent as given; one that names
 * another `contextId` gets none of this conversation's task ids. The conversation then follows what
 * the agent answers.
 * The state changes with every task, status or message seen, as it arrives. A turn that fails
 * before any answer (nothing sent, refused, timed out) changes nothing: the next turn goes to the
 * same task again. A stream that fails midway keeps what it saw.
 *
 * One turn at a time: a turn started while another is in flight rejects at once with kind
 * `unsupported`, and nothing is sent. A stream's turn starts when its iteration starts and lasts
 * until the iteration ends (completion, error, `break`/`return`).
 */
export class Conversation {
  readonly #port: ConversationPort;
  #contextId: string | undefined;
  #lastTaskId: string | undefined;
  #state: TaskState | undefined;
  #busy = false;

  static {
    // `this`, not the class's name: a class that names itself in its body is bundled as `_Conversation`, the name Node prints.
    open = (port, init) => new this(port, init);
  }

  /**
   * Private: a conversation is made by `client.conversation(init)`, so the port it runs on (the
   * client's send paths) stays out of the public types.
   * @throws A2AClientError kind `unsupported` for an `init` that is neither `{ contextId? }` nor a
   * `toJSON()` result of a version this client reads, naming the field (`field`, `issues`).
   */
  private constructor(port: ConversationPort, init?: unknown) {
    this.#port = port;
    const start = readConversationInit(init, port.agent);
    this.#contextId = start.contextId;
    this.#lastTaskId = start.lastTaskId;
    this.#state = start.state;
  }

  /** The context the agent put this conversation in; `undefined` until its first answer. */
  get contextId(): string | undefined {
    return this.#contextId;
  }

  /** The open task the next turn continues (its state is `input-required` / `auth-required`), else `undefined`. */
  get taskId(): string | undefined {
    return this.#state !== undefined && INTERRUPTED_STATES.has(this.#state) ? this.#lastTaskId : undefined;
  }

  /** The last task seen, whatever its state. */
  get lastTaskId(): string | undefined {
    return this.#lastTaskId;
  }

  /** The last known state of {@link lastTaskId}. */
  get state(): TaskState | undefined {
    return this.#state;
  }

  /**
   * One turn through `client.sendMessage`.
   * @throws A2AClientError as `client.sendMessage`; kind `unsupported` while another turn is in flight.
   */
  async sendMessage(params: SendMessageParams, call: CallOptions = {}): Promise<SendResult> {
    this.#begin('sendMessage');
    try {
      return await this.#send(this.#fill(params), call);
    } finally {
      this.#busy = false;
    }
  }

  /**
   * One turn through `client.sendStreamingMessage`.
   * @throws A2AClientError as `client.sendStreamingMessage`; kind `unsupported` (from the first
   * `next()`) while another turn is in flight.
   */
  sendStreamingMessage(params: SendMessageParams, call: CallOptions = {}): AsyncIterable<StreamEvent> {
    return this.#streamingTurn(params, call);
  }

  /**
   * One turn through `client.invoke`: a remote failure is the last event, with `error` set.
   * @throws A2AClientError kind `unsupported` while another turn is in flight (nothing else).
   */
  async invoke(input: AgentInput, call: CallOptions = {}): Promise<AgentEvent[]> {
    this.#begin('invoke');
    try {
      const params = this.#fill(paramsFromInput(input));
      return await this.#port.invoke(() => this.#send(params, call), call);
    } finally {
      this.#busy = false;
    }
  }

  /**
   * One turn through `client.stream`: a remote failure is the last event, with `error` set.
   * @throws A2AClientError kind `unsupported` (from the first `next()`) while another turn is in flight.
   */
  stream(input: AgentInput, call: CallOptions = {}): AsyncIterable<AgentEvent> {
    return this.#eventTurn(input, call);
  }

  /** The state as plain JSON, for `client.conversation(saved)` on any client of the same agent. */
  toJSON(): ConversationSnapshot {
    return { version: 1, ...opt('contextId', this.#contextId), ...opt('lastTaskId', this.#lastTaskId), ...opt('state', this.#state) };
  }

  async *#streamingTurn(params: SendMessageParams, call: CallOptions): AsyncGenerator<StreamEvent, void, undefined> {
    this.#begin('sendStreamingMessage');
    try {
      for await (const batch of this.#port.sendStreaming(this.#fill(params), call)) {
        for (const item of batch) {
          this.#observe(item);
          yield item;
        }
      }
    } finally {
      this.#busy = false;
    }
  }

  async *#eventTurn(input: AgentInput, call: CallOptions): AsyncGenerator<AgentEvent, void, undefined> {
    this.#begin('stream');
    try {
      const params = this.#fill(paramsFromInput(input));
      yield* this.#port.stream((follow) => this.#observed(this.#port.sendStreaming(params, call, follow)), call);
    } finally {
      this.#busy = false;
    }
  }

  async *#observed(batches: AsyncIterable<readonly StreamEvent[]>): AsyncGenerator<readonly StreamEvent[], void, undefined> {
    for await (const batch of batches) {
      for (const item of batch) this.#observe(item);
      yield batch;
    }
  }

  async #send(params: SendMessageParams, call: CallOptions): Promise<SendResult> {
    const result = await this.#port.sendMessage(params, call);
    this.#observe(result);
    return result;
  }

  #begin(method: string): void {
    if (this.#busy) {
      throw new A2AClientError({
        kind: 'unsupported',
        message: 'a conversation runs one turn at a time: the previous turn is still in flight (nothing was sent)',
        agent: this.#port.agent,
        method,
      });
    }
    this.#busy = true;
  }

  /** `params` with the conversation's ids where the caller left them out. */
  #fill(params: SendMessageParams): SendMessageParams {
    const m = params.message;
    // A caller who names a task addresses it as is: the agent knows its context.
    if (m.taskId !== undefined) return params;
    const contextId = m.contextId ?? this.#contextId;
    // Our task ids belong to our context: a caller who steers the turn elsewhere gets none of them.
    const ours = contextId === this.#contextId;
    const taskId = ours ? this.taskId : undefined;
    const references = m.referenceTaskIds ?? (ours && taskId === undefined && this.#lastTaskId !== undefined ? [this.#lastTaskId] : undefined);
    return { ...params, message: { ...m, ...opt('contextId', contextId), ...opt('taskId', taskId), ...opt('referenceTaskIds', references) } };
  }

  /** Learns ids and state from one answer or stream item. */
  #observe(item: StreamEvent): void {
    switch (item.kind) {
      case 'task':
        return this.#see(item.contextId, item.id, item.status.state);
      case 'status-update':
        return this.#see(item.contextId, item.taskId, item.status.state);
      case 'artifact-update':
        return this.#see(item.contextId, item.taskId, undefined);
      case 'message':
        if (item.contextId) this.#contextId = item.contextId;
        return;
    }
  }

  #see(contextId: string, taskId: string, state: TaskState | undefined): void {
    if (contextId) this.#contextId = contextId;
    if (!taskId) return;
    if (taskId !== this.#lastTaskId) {
      this.#lastTaskId = taskId;
      // An artifact of a task not seen before: it runs, though no status said so yet.
      this.#state = state ?? 'working';
    } else if (state !== undefined) {
      this.#state = state;
    }
  }
}
