/**
 * What the layers below the client know of a call's trace: an interface without OpenTelemetry types,
 * so the resilience pipeline and stream resume record on it without depending on the API. A call
 * has one only while tracing is on (an API installed and a tracer provider registered).
 */
import type { ResilienceEvent } from './event-types.js';

/** The span of one logical call (all its attempts, waits and resubscribes). */
export interface CallTrace {
  /** The trace id (32 hex digits). */
  readonly traceId: string;
  /** Records a resilience event (retry and its backoff wait, give-up, budget, resubscribe) as a span event. */
  event(event: ResilienceEvent): void;
  /** Records that the agent's circuit breaker refused an attempt. */
  circuitOpen(retryAfterMs: number): void;
  /** Records that an authentication challenge is being answered (the request is repeated once). */
  challenge(status: number, scheme: string | undefined): void;
  /** Runs `fn` with the call's span as the active context (for instrumentation below, e.g. of HTTP). */
  run<T>(fn: () => T): T;
  /** `headers` plus the trace context (`traceparent`, `tracestate`) of the call's span: a copy. */
  inject(headers: Record<string, string>): Record<string, string>;
  /** Notes what an answer says: conversation (context) id, task id, task state. */
  observe(answer: unknown): void;
  /** Ends the span: as a success, or as the failure `error`. Later calls do nothing. */
  end(error?: unknown): void;
}
