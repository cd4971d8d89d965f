/**
 * Tolerant parsers for structured HTTP error bodies: `application/problem+json` (RFC 9457 with the
 * agent extensions) and `google.rpc.Status` (`{ error: { code, status, message, details } }`). A field
 * of the wrong type is dropped instead of failing the whole body.
 */
import { lazy, z } from '../util/lazy-zod.js';
import type { ProblemDetails, RpcStatus } from './problem.js';

const str = lazy(() => z.catch(z.optional(z.string()), undefined));
const num = lazy(() => z.catch(z.optional(z.number()), undefined));
const bool = lazy(() => z.catch(z.optional(z.boolean()), undefined));

const ProblemSchema: z.ZodType<ProblemDetails> = lazy(() => z.looseObject({
  type: str,
  title: str,
  status: num,
  detail: str,
  instance: str,
  is_retriable: bool,
  retry_after_ms: num,
  retry_after_seconds: num,
  trace_id: str,
  doc_uri: str,
  suggestions: z.catch(z.optional(z.array(z.string())), undefined),
  errors: z.catch(z.optional(z.array(z.lazy(() => ProblemSchema))), undefined),
}));

const PROBLEM_FIELDS = ['type', 'title', 'status', 'detail', 'instance', 'is_retriable', 'retry_after_ms', 'retry_after_seconds'];

/**
 * A problem-details body, or `undefined` when `json` is not an object carrying any problem field
 * (`type`, `title`, `status`, `detail`, …). Never throws.
 */
export function parseProblem(json: unknown): ProblemDetails | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  if (!PROBLEM_FIELDS.some((f) => f in json)) return undefined;
  const r = ProblemSchema.safeParse(json);
  return r.success ? r.data : undefined;
}

const RpcStatusSchema = lazy(() => z.looseObject({
  error: z.looseObject({
    code: num,
    status: str,
    message: str,
    // One odd item (a string, null) must not hide the ErrorInfo beside it: items are filtered below.
    details: z.catch(z.optional(z.array(z.unknown())), undefined),
  }),
}));

/**
 * The inner object of a `google.rpc.Status` body, or `undefined` when `json` is not one (a JSON-RPC
 * response, which also has `error`, is not). Never throws.
 */
export function parseRpcStatus(json: unknown): RpcStatus | undefined {
  if (typeof json !== 'object' || json === null || 'jsonrpc' in json) return undefined;
  const r = RpcStatusSchema.safeParse(json);
  if (!r.success) return undefined;
  const e = r.data.error;
  if (e.code === undefined && e.status === undefined && e.message === undefined) return undefined;
  const { details, ...rest } = e;
  return details === undefined ? rest : { ...rest, details: details.filter(isRecord) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
