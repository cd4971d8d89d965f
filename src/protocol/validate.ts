import type { z } from 'zod';
import { A2AClientError } from '../errors/a2a-client-error.js';

/** Largest body excerpt kept on an error. */
export const BODY_TEXT_LIMIT = 4096;

/** Truncates untrusted text for an error field. */
export function bounded(text: string, limit = BODY_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

/** Dotted path of a zod issue, prefixed (e.g. `result.task.status.state`). */
function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  const parts = [prefix, ...path.map((p) => String(p))].filter((p) => p !== '');
  return parts.join('.') || '(root)';
}

/**
 * Validates `value` from the wire with `schema`.
 * @throws A2AClientError kind `invalid-response` naming the first offending field (zod issue path).
 */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, field: string, method?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: issuePath(field, i.path), message: i.message }));
  const first = issues[0] ?? { path: field, message: 'invalid' };
  throw new A2AClientError({
    kind: 'invalid-response',
    message: `Invalid response: ${first.path}: ${first.message}`,
    cause: result.error,
    field: first.path,
    issues,
    method,
    phase: 'after-send',
  });
}

/**
 * Parses a JSON text from the wire.
 * @throws A2AClientError kind `invalid-response` (field `body`) when it is not JSON.
 */
export function parseJsonText(text: string, method?: string, status?: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new A2AClientError({
      kind: 'invalid-response',
      message: 'Invalid response: body is not JSON',
      cause,
      field: 'body',
      bodyText: bounded(text),
      method,
      status,
      phase: 'after-send',
    });
  }
}

/**
 * A response that passed validation but has no usable member (a guard the schemas already enforce).
 * @throws A2AClientError kind `invalid-response`.
 */
export function noMember(field: string): never {
  throw new A2AClientError({ kind: 'invalid-response', message: `Invalid response: ${field} has no known member`, field, phase: 'after-send' });
}
