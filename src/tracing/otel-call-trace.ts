/**
 * A {@link CallTrace} on an OpenTelemetry span: events, status, `error.type`, the span as the active
 * context of each attempt, and W3C trace context injected through the registered propagator.
 * Attributes are built only while the span records (a sampled-out span still propagates).
 */
import type { Attributes, Context, Span } from '@opentelemetry/api';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { ResilienceEvent } from '../resilience/event-types.js';
import type { CallTrace } from '../resilience/call-trace.js';
import type { OtelApi } from './otel-api.js';
import { rememberTraceId } from './trace-ids.js';

/** Task states that make a call's outcome a failure although the call itself succeeded. */
const FAILED_STATES: ReadonlySet<unknown> = new Set(['failed', 'rejected']);

/** The span of one call; see {@link CallTrace}. */
export class OtelCallTrace implements CallTrace {
  readonly traceId: string;
  readonly #api: OtelApi;
  readonly #span: Span;
  readonly #context: Context;
  readonly #recording: boolean;
  #conversationId: string | undefined;
  #taskId: string | undefined;
  #state: string | undefined;
  #ended = false;

  constructor(api: OtelApi, span: Span, parent: Context) {
    this.#api = api;
    this.#span = span;
    this.#context = api.trace.setSpan(parent, span);
    this.#recording = span.isRecording();
    this.traceId = span.spanContext().traceId;
  }

  event(event: ResilienceEvent): void {
    if (!this.#recording) return;
    switch (event.type) {
      case 'retry':
        this.#span.addEvent('a2a.retry', { 'a2a.attempt': event.attempt, 'a2a.retry.delay_ms': Math.round(event.delayMs), 'a2a.retry.reason': event.reason, 'error.type': errorType(event.error) });
        break;
      case 'give-up':
        this.#span.addEvent('a2a.give_up', { 'a2a.attempts': event.attempts, 'a2a.give_up.reason': event.reason });
        break;
      case 'budget-exhausted':
        this.#span.addEvent('a2a.budget_exhausted', { 'a2a.attempt': event.attempt });
        break;
      case 'resubscribe':
        this.#span.addEvent('a2a.resubscribe', { 'a2a.attempt': event.attempt, 'a2a.retry.delay_ms': Math.round(event.delayMs), 'a2a.resubscribe.reason': event.reason, 'a2a.task.id': event.taskId });
        break;
      case 'cancel': {
        const attributes: Attributes = { 'a2a.task.id': event.taskId, 'a2a.cancel.reason': event.reason, 'a2a.cancel.outcome': event.outcome };
        if (event.error !== undefined) attributes['error.type'] = errorType(event.error);
        this.#span.addEvent('a2a.cancel', attributes);
        break;
      }
      default:
        // Breaker transitions are the agent's, not this call's: the refusal itself is recorded (circuitOpen).
        break;
    }
  }

  circuitOpen(retryAfterMs: number): void {
    if (this.#recording) this.#span.addEvent('a2a.circuit_open', { 'a2a.circuit.retry_after_ms': Math.round(retryAfterMs) });
  }

  challenge(status: number, scheme: string | undefined): void {
    if (!this.#recording) return;
    const attributes: Attributes = { 'http.response.status_code': status };
    if (scheme !== undefined) attributes['a2a.auth.scheme'] = scheme.slice(0, 40);
    this.#span.addEvent('a2a.auth_challenge', attributes);
  }

  run<T>(fn: () => T): T {
    return this.#api.context.with(this.#context, fn);
  }

  inject(headers: Record<string, string>): Record<string, string> {
    const out = { ...headers };
    this.#api.propagation.inject(this.#context, out);
    return out;
  }

  observe(answer: unknown): void {
    if (!this.#recording || typeof answer !== 'object' || answer === null || !('kind' in answer)) return;
    const kind = answer.kind;
    // Most stream events are artifact updates: once the conversation is known they say nothing new.
    if (kind === 'artifact-update' && this.#conversationId !== undefined) return;
    if ('contextId' in answer && typeof answer.contextId === 'string' && answer.contextId !== '') this.#conversationId = answer.contextId;
    const taskId = kind === 'task' ? ('id' in answer ? answer.id : undefined) : 'taskId' in answer ? answer.taskId : undefined;
    if (typeof taskId === 'string' && taskId !== '') this.#taskId = taskId;
    if ((kind === 'task' || kind === 'status-update') && 'status' in answer && typeof answer.status === 'object' && answer.status !== null && 'state' in answer.status) {
      const state = answer.status.state;
      if (typeof state === 'string') this.#state = state;
    }
  }

  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    const { SpanStatusCode } = this.#api;
    if (this.#recording) {
      if (this.#conversationId !== undefined) this.#span.setAttribute('gen_ai.conversation.id', this.#conversationId);
      if (this.#taskId !== undefined) this.#span.setAttribute('a2a.task.id', this.#taskId);
      if (this.#state !== undefined) this.#span.setAttribute('a2a.task.state', this.#state);
    }
    if (error !== undefined) {
      rememberTraceId(error, this.traceId);
      this.#span.setAttribute('error.type', errorType(error));
      const message = isA2AClientError(error) || error instanceof Error ? error.message : String(error);
      this.#span.setStatus({ code: SpanStatusCode.ERROR, message: message.slice(0, 300) });
    } else if (FAILED_STATES.has(this.#state)) {
      this.#span.setAttribute('error.type', `task-${this.#state ?? 'failed'}`);
      this.#span.setStatus({ code: SpanStatusCode.ERROR, message: `the task ended ${this.#state ?? 'failed'}` });
    }
    this.#span.end();
  }
}

/** `error.type` of a failure: the A2A name (`TaskNotFound`) when there is one, else the kind. */
export function errorType(error: unknown): string {
  if (!isA2AClientError(error)) return error instanceof Error ? error.name : 'unknown';
  return error.a2aName ?? error.kind;
}
