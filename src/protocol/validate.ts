import { inEnglish, type z } from '../util/lazy-zod.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { WireType } from './wire-check.js';

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

/** The `invalid-response` error for a failed parse, naming the first offending field (zod issue path). */
function invalidResponse(error: z.ZodError, field: string, method: string | undefined): A2AClientError {
  const issues = error.issues.map((i) => ({ path: issuePath(field, i.path), message: i.message }));
  const first = issues[0] ?? { path: field, message: 'invalid' };
  return new A2AClientError({
    kind: 'invalid-response',
    message: `Invalid response: ${first.path}: ${first.message}`,
    cause: error,
    field: first.path,
    issues,
    method,
    phase: 'after-send',
  });
}

/**
 * Validates `value` from the wire with `schema` and returns zod's output (a new object).
 * @throws A2AClientError kind `invalid-response` naming the first offending field (zod issue path).
 */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown, field: string, method?: string): z.infer<S> {
  const result = schema.safeParse(value, inEnglish());
  if (result.success) return result.data;
  throw invalidResponse(result.error, field, method);
}

/**
 * A schema that only checks: its output is its input minus undeclared keys. No `.transform()`,
 * `.default()`, `.pipe()` or coercion (the input type must be assignable to the output type, which the
 * compiler enforces), and no `.catch()` (which the types cannot see).
 */
export type CheckingSchema<S extends z.ZodType> = z.input<S> extends z.output<S> ? S : never;

/**
 * Validates `value` from the wire with a checking `schema` (see {@link CheckingSchema}), or a
 * {@link WireType} (its predicate first), and returns `value` itself, typed as the schema's output. A
 * successful parse proves every declared key of the input has its declared type, so the input is a
 * valid output that also keeps unknown fields and extensions: decoders put it in `raw` as received.
 * zod parses only when there is no predicate or it says no, so every error is zod's.
 * @throws A2AClientError kind `invalid-response` naming the first offending field (zod issue path).
 */
export function checkWire<S extends z.ZodType>(type: (S & CheckingSchema<S>) | WireType<S>, value: unknown, field: string, method?: string): z.output<S> {
  if (type instanceof WireType) {
    if (type.test(value)) return value as z.output<S>;
    return checkWire(type.schema as S & CheckingSchema<S>, value, field, method);
  }
  const result = type.safeParse(value, inEnglish());
  if (!result.success) throw invalidResponse(result.error, field, method);
  // The parse succeeded and the schema does not change values (CheckingSchema): `value` is its output.
  return value as z.output<S>;
}

/** How many of the arguments are defined; "exactly one of" checks without allocating an array. */
export function countDefined(a: unknown, b: unknown, c?: unknown, d?: unknown): number {
  return (a === undefined ? 0 : 1) + (b === undefined ? 0 : 1) + (c === undefined ? 0 : 1) + (d === undefined ? 0 : 1);
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
 * A valid object where this method expects another (a status update answering `getTask`), or an
 * answer to a method the version does not have.
 * @throws A2AClientError kind `invalid-response` naming `field`.
 */
export function unexpected(field: string, value: unknown): never {
  const what = value === undefined ? 'no value is expected' : `unexpected ${JSON.stringify(value)}`;
  throw new A2AClientError({ kind: 'invalid-response', message: `Invalid response: ${field}: ${what}`, field, phase: 'after-send' });
}

/**
 * A response that passed validation but has no usable member (a guard the schemas already enforce).
 * @throws A2AClientError kind `invalid-response`.
 */
export function noMember(field: string): never {
  throw new A2AClientError({ kind: 'invalid-response', message: `Invalid response: ${field} has no known member`, field, phase: 'after-send' });
}
