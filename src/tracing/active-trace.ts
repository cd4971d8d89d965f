/** The trace of the span active right now, when tracing is on (for correlation ids in what an agent returns). */
import { otelApi } from './otel-api.js';

/**
 * The trace id of the active span, or `undefined` when there is none, no API is installed, or the
 * span context is not valid. Never throws.
 */
export function activeTraceId(): string | undefined {
  const api = otelApi();
  if (api === undefined) return undefined;
  const spanContext = api.trace.getSpanContext(api.context.active());
  return spanContext !== undefined && api.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
