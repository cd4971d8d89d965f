import type { AgentEvent } from '../convert/agent-event.js';
import type { ResponseError } from '../errors/a2a-client-error.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { ResilienceEvent } from '../resilience/event-types.js';

/** The fields of a ResponseError worth showing, in a fixed order, without the `cause` object. */
export function errorFields(error: ResponseError): string {
  const fields: Array<[string, unknown]> = [
    ['type', error.type],
    ['code', error.code],
    ['retryable', error.retryable],
    ['retryAfterMs', error.retryAfterMs],
    ['param', error.param],
    ['traceId', error.traceId],
    ['kind', error.cause?.kind],
  ];
  return fields
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

/** One event as a human-readable line. */
export function formatEvent(event: AgentEvent): string {
  if (event.error) {
    const mark = event.done || event.object === 'error' ? 'error' : 'warning';
    return `${mark}: ${event.error.message}\n  ${errorFields(event.error)}`;
  }
  const state = event.state ? `[${event.state}] ` : '';
  return `${state}${event.text ?? ''}`.trimEnd();
}

/** One event as a JSON line: no `raw`, the error's cause as its own JSON. */
export function eventJson(event: AgentEvent): string {
  const { raw: _raw, error, ...rest } = event;
  const out: Record<string, unknown> = { ...rest };
  if (error) {
    const { cause, ...fields } = error;
    out.error = { ...fields, ...(cause && isA2AClientError(cause) ? { cause: cause.toJSON() } : {}) };
  }
  return JSON.stringify(out);
}

/** A resilience event as one line for `--verbose` (stderr): what happened, to which call, and why. */
export function formatResilienceEvent(event: ResilienceEvent): string {
  const kind = (error: unknown): string => (isA2AClientError(error) ? ` [${error.kind}${error.status !== undefined ? ` ${error.status}` : ''}]` : '');
  switch (event.type) {
    case 'retry':
      return `· retry: ${event.method} attempt ${event.attempt} failed${kind(event.error)} (${event.reason}); next attempt in ${Math.round(event.delayMs)} ms`;
    case 'give-up':
      return `· give-up: ${event.method} after ${event.attempts} attempt${event.attempts === 1 ? '' : 's'} in ${Math.round(event.elapsedMs)} ms${kind(event.error)} (${event.reason})`;
    case 'breaker-open':
      return `· breaker: open for ${Math.round(event.retryAfterMs)} ms (calls fail fast)`;
    case 'breaker-half-open':
      return '· breaker: half-open (one probe let through)';
    case 'breaker-close':
      return '· breaker: closed';
    case 'budget-exhausted':
      return `· budget: retry budget spent; ${event.method} attempt ${event.attempt} is not retried`;
    case 'resubscribe':
      return `· resubscribe: stream of task ${event.taskId} dropped (${event.reason}); resubscribing in ${Math.round(event.delayMs)} ms (round ${event.attempt})`;
    case 'shared-state':
      return `· shared state: ${event.status} (${event.reason})`;
    case 'send-lookup':
      return `· lookup: ${event.method} ${event.messageId} failed after it was sent; ${event.outcome === 'found' ? `found task ${event.taskId ?? '?'}, following it` : event.outcome === 'absent' ? 'the agent never got it; sending again' : 'the agent cannot tell'} (${event.requests} request${event.requests === 1 ? '' : 's'}, ${Math.round(event.elapsedMs)} ms)`;
    case 'cancel':
      return `· cancel: task ${event.taskId} abandoned (${event.reason}); cancel ${event.outcome}${kind(event.error)} after ${Math.round(event.elapsedMs)} ms`;
  }
}

/** The request headers as `--verbose` shows them: names only, every value hidden. */
export function hiddenHeaders(headers: Record<string, string> | undefined): string {
  const names = Object.keys(headers ?? {});
  return names.length === 0 ? '(none)' : names.map((n) => `${n.toLowerCase()}: [hidden]`).join(', ');
}
