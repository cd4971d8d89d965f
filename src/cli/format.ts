import type { AgentEvent } from '../convert/agent-event.js';
import type { ResponseError } from '../errors/response-error.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';

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
