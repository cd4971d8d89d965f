import type { AgentEvent } from '../convert/agent-event.js';
import type { EventConverter } from '../convert/converter.js';
import type { AgentCard, StreamEvent } from '../protocol/model.js';
import type { SendMessageParams } from '../protocol/method-params.js';
import type { AgentCalls, FollowOptions } from './agent-calls.js';
import type { ConversationPort } from './conversation.js';
import { answerLimit } from '../convert/answer-limit.js';
import { invokeEvents, streamEvents } from './event-api.js';
import { paramsFromInput, resolveSendParams, type AgentInput } from './input.js';
import type { CallOptions, ClientOptions } from './options.js';
import { resumeBatches } from './resume.js';
import type { TaskCallsDeps } from './task-calls.js';

/** What {@link ClientStreams} uses of its client. */
export interface ClientStreamsDeps extends TaskCallsDeps {
  calls: AgentCalls;
  converter: EventConverter;
  options: ClientOptions;
}

/**
 * The streaming side of one client: a send's updates in batches (the resumable stream; for an agent
 * that does not stream, the single result of a send, or with `cancelOnAbort` a non-blocking send
 * polled until the task settles) and the event API over them (`invoke`, `stream`, `resume`, the
 * turns of a conversation), all through one path, so what `stream()` guarantees holds for each.
 */
export class ClientStreams {
  readonly #deps: ClientStreamsDeps;

  constructor(deps: ClientStreamsDeps) {
    this.#deps = deps;
  }

  /** A send's updates in batches (see the class). */
  sendBatches(params: SendMessageParams, call: CallOptions, follow?: FollowOptions): AsyncIterable<StreamEvent[]> {
    const { card, calls, options } = this.#deps;
    const resolved = resolveSendParams(params);
    if (card.capabilities.streaming === false) {
      if (call.cancelOnAbort ?? options.cancelOnAbort ?? false) return calls.polledSend(resolved, call, follow);
      return single(async () => [await calls.unary('sendMessage', resolved, call)]);
    }
    return calls.stream('sendStreamingMessage', resolved, call, follow);
  }

  /** `A2AClient.invoke`: a send's result converted; a remote failure is the last event. */
  invoke(input: AgentInput, call: CallOptions): Promise<AgentEvent[]> {
    const { name, card, converter, calls } = this.#deps;
    return invokeEvents(name, card, converter, () => calls.unary('sendMessage', resolveSendParams(paramsFromInput(input)), call));
  }

  /** `A2AClient.stream`: a streaming send as converted events. */
  stream(input: AgentInput, call: CallOptions): AsyncIterable<AgentEvent> {
    return this.events(call, (follow) => this.sendBatches(paramsFromInput(input), call, follow));
  }

  /** `A2AClient.resume`: an existing task as converted events. */
  resume(taskId: string, call: CallOptions): AsyncIterable<AgentEvent> {
    return this.events(call, (follow) => resumeBatches(this.#deps, taskId, call, follow));
  }

  /** What a conversation needs of its client: the same send paths and event API. */
  conversationPort(): ConversationPort {
    const { name, card, converter, calls } = this.#deps;
    return {
      agent: name,
      sendMessage: (params, call) => calls.unary('sendMessage', resolveSendParams(params), call),
      sendStreaming: (params, call, follow) => this.sendBatches(params, call, follow),
      invoke: (send) => invokeEvents(name, card, converter, send),
      stream: (open, call) => this.events(call, open),
    };
  }

  /**
   * The event API over a stream opened with `follow`: the call's `accumulate` goes to the converter,
   * and leaving the stream after the converter's final event is not abandoning the task (`cancelOnAbort`).
   * @throws RangeError for an `accumulate` that is neither a boolean nor a whole number ≥ 0.
   */
  events(call: CallOptions, open: (follow: FollowOptions) => AsyncIterable<readonly StreamEvent[]>): AsyncIterable<AgentEvent> {
    if (answerLimit(call.accumulate) === undefined) throw new RangeError(`accumulate must be true, false or a whole number of characters ≥ 0, got ${String(call.accumulate)}`);
    let done = false;
    const follow: FollowOptions = { completed: () => done };
    const onDone = (): void => {
      done = true;
    };
    return streamEvents(this.#deps.name, this.#deps.card, this.#deps.converter, () => open(follow), { accumulate: call.accumulate, onDone });
  }
}

async function* single<T>(get: () => Promise<T>): AsyncIterable<T> {
  yield await get();
}

/** The card a client was given, when it is already normalised (another client's `card`). */
export function isNormalisedCard(value: unknown): value is AgentCard {
  return typeof value === 'object' && value !== null && Array.isArray((value as { interfaces?: unknown }).interfaces) && 'raw' in value;
}
