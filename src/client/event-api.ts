import type { AgentEvent } from '../convert/agent-event.js';
import type { ConverterContext, EventConverter } from '../convert/converter.js';
import { converterErrorEvent, errorEvent, safeConvert } from '../convert/safe-convert.js';
import { defaultConverter } from '../convert/default-converter.js';
import { convertStreamInto } from '../convert/stream-convert.js';
import { scratchOf } from '../convert/stream-scratch.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard, SendResult, StreamEvent } from '../protocol/model.js';
import { flatten, type BatchReader } from './flatten.js';

function newContext(agent: string, card: AgentCard, accumulate?: boolean | number): ConverterContext {
  const ctx: ConverterContext = { agent, card, state: {} };
  if (accumulate !== undefined) ctx.accumulate = accumulate;
  return ctx;
}

/**
 * Converts a batch of stream items into `out`, up to and including the first `done` event (then
 * true: nothing follows it). The default converter appends straight into `out` with its scratch at
 * hand; any other converter is called per item.
 */
function batchConverter(converter: EventConverter, ctx: ConverterContext): (batch: readonly StreamEvent[], out: AgentEvent[]) => boolean {
  if (converter === defaultConverter) {
    const s = scratchOf(ctx);
    return (batch, out) => {
      for (let i = 0; i < batch.length; i++) {
        convertStreamInto(batch[i] as StreamEvent, ctx, s, out);
        // The default converter ends a call with its `done` event and adds nothing after it.
        if (s.ended) return out.at(-1)?.done === true;
      }
      return false;
    };
  }
  return (batch, out) => {
    for (const item of batch) {
      const events = converter.convertStream(item, ctx);
      for (let i = 0; i < events.length; i++) {
        const event = events[i] as AgentEvent;
        out.push(event);
        if (event.done) return true;
      }
    }
    return false;
  };
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
 * too early. `open` (called when iteration starts) yields the stream's events in batches; a batch is
 * converted at once, under one guard: a converter that throws ends the stream with its error event,
 * after what it converted before. `options.onDone` is told when a converted event ends the stream
 * (`done`); `options.accumulate` (the call's option) is handed to the converter in its context: how
 * much of the answer it keeps for the final event.
 */
export function streamEvents(
  agent: string,
  card: AgentCard,
  converter: EventConverter,
  open: () => AsyncIterable<readonly StreamEvent[]>,
  options: { accumulate?: boolean | number | undefined; onDone?: (() => void) | undefined } = {},
): AsyncIterable<AgentEvent> {
  const ctx = newContext(agent, card, options.accumulate);
  const onDone = options.onDone;
  const convert = batchConverter(converter, ctx);
  const reader: BatchReader<readonly StreamEvent[], AgentEvent> = {
    read: (batch) => {
      const items: AgentEvent[] = [];
      try {
        if (convert(batch, items)) {
          onDone?.();
          return { items, last: true };
        }
      } catch (error) {
        items.push(converterErrorEvent(converter, agent, error));
        return { items, last: true };
      }
      return { items, last: false };
    },
    fail: (error) => {
      if (isA2AClientError(error)) return [errorEvent(error, agent)];
      throw error;
    },
    end: () => (converter.end ? safeConvert(converter, ctx, (c) => c.end?.(ctx) ?? []) : []),
  };
  return flatten({ [Symbol.asyncIterator]: () => open()[Symbol.asyncIterator]() }, reader);
}
