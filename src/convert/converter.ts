import type { AgentCard, SendResult, StreamEvent } from '../protocol/model.js';
import type { AgentEvent } from './agent-event.js';

/** What a converter knows about the call it converts for. */
export interface ConverterContext {
  /** The agent's name (card name). */
  agent: string;
  /** The agent's card. */
  card: AgentCard;
  /**
   * Per-stream scratch state, fresh for every call: buffered text, whether a terminal event was
   * emitted, ids seen. A converter may keep anything here.
   */
  state: Record<string, unknown>;
  /**
   * The call's `accumulate`: how much answer text the final event may carry. `false`: none (keep no
   * more than the current chunk); `true`: all of it; a number: at most that many characters — a
   * longer answer is not kept. `undefined`: 1 MiB of text (see `CallOptions.accumulate`).
   */
  accumulate?: boolean | number;
}

/**
 * Turns protocol results into {@link AgentEvent}s, rebuilding `ResponseError` from structured
 * failures. A provider converter may wrap `defaultConverter` and post-process.
 */
export interface EventConverter {
  /** The converter's name, for `ClientOptions.converter` and registries. */
  readonly name: string;
  /** A unary result (`sendMessage`) → events. */
  convert(result: SendResult, ctx: ConverterContext): AgentEvent[];
  /** One stream item → zero or more events. */
  convertStream(event: StreamEvent, ctx: ConverterContext): AgentEvent[];
  /**
   * Optional: called once when the stream closed without error, after its last item. Returns the
   * events that close the call, e.g. an error event when no terminal or interrupted state was seen.
   */
  end?(ctx: ConverterContext): AgentEvent[];
}
