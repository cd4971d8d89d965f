import type { AgentEvent } from '../convert/agent-event.js';
import type { ConverterContext, EventConverter } from '../convert/converter.js';
import { errorEvent, safeConvert } from '../convert/safe-convert.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard, SendResult, StreamEvent } from '../protocol/model.js';

function newContext(agent: string, card: AgentCard): ConverterContext {
  return { agent, card, state: {} };
}

/**
 * Runs a send and converts its result. A remote failure (any `A2AClientError`) becomes the one
 * terminal error event; anything else is a bug and is rethrown.
 */
export async function invokeEvents(
  agent: string,
  card: AgentCard,
  converter: EventConverter,
  send: () => Promise<SendResult>,
): Promise<AgentEvent[]> {
  const ctx = newContext(agent, card);
  let result: SendResult;
  try {
    result = await send();
  } catch (error) {
    if (isA2AClientError(error)) return [errorEvent(error, agent)];
    throw error;
  }
  return safeConvert(converter, ctx, (c) => c.convert(result, ctx));
}

/**
 * Runs a stream and converts each item. Stops after a terminal event (nothing follows it); a remote
 * failure becomes the one terminal error event; the converter's `end` reports a stream that closed
 * too early.
 */
export async function* streamEvents(
  agent: string,
  card: AgentCard,
  converter: EventConverter,
  open: () => AsyncIterable<StreamEvent>,
): AsyncIterable<AgentEvent> {
  const ctx = newContext(agent, card);
  try {
    for await (const item of open()) {
      const events = safeConvert(converter, ctx, (c) => c.convertStream(item, ctx));
      for (const event of events) {
        yield event;
        if (event.done) return;
      }
    }
  } catch (error) {
    if (isA2AClientError(error)) {
      yield errorEvent(error, agent);
      return;
    }
    throw error;
  }
  const tail = converter.end ? safeConvert(converter, ctx, (c) => c.end?.(ctx) ?? []) : [];
  yield* tail;
}
