import type { AgentEvent } from './agent-event.js';
import type { EventConverter } from './converter.js';

export { errorEvent } from './from-client-error.js';

/** The one terminal error event for a converter that threw: type and code `converter_error`, source `path`. */
export function converterErrorEvent(converter: EventConverter, agent: string, error: unknown): AgentEvent {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    id: `error-${crypto.randomUUID()}`,
    object: 'error',
    done: true,
    partial: false,
    error: {
      type: 'converter_error',
      source: 'path',
      code: 'converter_error',
      message: `converter "${converter.name}" failed: ${reason}`,
      retryable: false,
      ambiguous: false,
    },
    agent,
  };
}

/**
 * Runs `fn` on `converter`; if the converter throws, returns the one terminal error event of type
 * `converter_error` (code `converter_error`, message naming the converter) instead of crashing.
 * Never throws.
 */
export function safeConvert(
  converter: EventConverter,
  ctx: { agent: string },
  fn: (converter: EventConverter) => AgentEvent[],
): AgentEvent[] {
  try {
    return fn(converter);
  } catch (error) {
    return [converterErrorEvent(converter, ctx.agent, error)];
  }
}
