/**
 * The typed `google.rpc` error details A2A v1.0 servers send: in a JSON-RPC `error.data` array and in
 * the `details` of a REST `google.rpc.Status` body, each object keyed by `@type`
 * (`type.googleapis.com/google.rpc.ErrorInfo`, …). Read once, where the error is built, into
 * {@link ErrorDetails}; details of other types stay where they were (`data`, `rpcStatus`).
 */
import { lazy, z } from '../util/lazy-zod.js';
import { parseDuration } from './retry-after.js';

/** One field a `google.rpc.BadRequest` says is wrong. */
export interface FieldViolation {
  /** Path of the field, e.g. `message.parts[0].text`. */
  field: string;
  description?: string;
  /** A machine-readable reason, when the server gave one. */
  reason?: string;
}

/**
 * What the typed `google.rpc` details of an error say, as plain data. Each member is present only
 * when the server sent it; the first detail of each type wins.
 */
export interface ErrorDetails {
  /** `google.rpc.ErrorInfo.reason`: a constant naming the error, e.g. `TASK_NOT_FOUND`. */
  reason?: string;
  /** `google.rpc.ErrorInfo.domain`: who defines `reason`, e.g. `a2a-protocol.org`. */
  domain?: string;
  /** `google.rpc.ErrorInfo.metadata` (string values only). */
  metadata?: Record<string, string>;
  /** `google.rpc.RetryInfo.retryDelay` in ms. */
  retryDelayMs?: number;
  /** `google.rpc.BadRequest.fieldViolations`. */
  fieldViolations?: FieldViolation[];
}

/** Bound on what one error can make us copy from an untrusted body. */
const MAX_VIOLATIONS = 50;
const MAX_METADATA = 50;

const str = lazy(() => z.catch(z.optional(z.string()), undefined));
const typed = lazy(() => z.looseObject({ '@type': z.string() }));
// `metadata` is read by hand (stringRecord): a zod record would turn a `__proto__` key into a prototype.
const errorInfo = lazy(() => z.object({ reason: str, domain: str, metadata: z.optional(z.unknown()) }));
const violation = lazy(() => z.object({ field: z.string(), description: str, reason: str }));
const badRequest = lazy(() => z.object({ fieldViolations: z.catch(z.optional(z.array(z.unknown())), undefined) }));

/** The short type name of a detail (`type.googleapis.com/google.rpc.ErrorInfo` → `google.rpc.ErrorInfo`). */
function typeName(type: string): string {
  const slash = type.lastIndexOf('/');
  return slash < 0 ? type : type.slice(slash + 1);
}

/**
 * Reads `google.rpc.ErrorInfo`, `RetryInfo` and `BadRequest` from a list of typed details (a JSON-RPC
 * `error.data` array, or `google.rpc.Status.details`). Anything else — not an array, items without a
 * string `@type`, members of the wrong type — is skipped. Returns `undefined` when nothing was found.
 * Never throws.
 */
export function parseErrorDetails(details: unknown): ErrorDetails | undefined {
  if (!Array.isArray(details)) return undefined;
  const out: ErrorDetails = {};
  let found = false;
  for (const item of details) {
    const head = typed.safeParse(item);
    if (!head.success) continue;
    switch (typeName(head.data['@type'])) {
      case 'google.rpc.ErrorInfo': {
        const info = errorInfo.safeParse(item);
        if (!info.success || out.reason !== undefined || info.data.reason === undefined) break;
        out.reason = info.data.reason;
        if (info.data.domain !== undefined) out.domain = info.data.domain;
        const metadata = stringRecord(info.data.metadata);
        if (metadata) out.metadata = metadata;
        found = true;
        break;
      }
      case 'google.rpc.RetryInfo': {
        const ms = parseDuration(head.data['retryDelay']);
        if (ms === undefined || out.retryDelayMs !== undefined) break;
        out.retryDelayMs = ms;
        found = true;
        break;
      }
      case 'google.rpc.BadRequest': {
        const request = badRequest.safeParse(item);
        if (!request.success || out.fieldViolations !== undefined) break;
        const violations = violationsOf(request.data.fieldViolations);
        if (violations.length === 0) break;
        out.fieldViolations = violations;
        found = true;
        break;
      }
      default:
        break;
    }
  }
  return found ? out : undefined;
}

function stringRecord(record: unknown): Record<string, string> | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const out: Record<string, string> = {};
  let n = 0;
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== 'string') continue;
    if (++n > MAX_METADATA) break;
    // A plain own property even for a key like `__proto__`.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return n === 0 ? undefined : out;
}

function violationsOf(items: unknown[] | undefined): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const item of items ?? []) {
    const v = violation.safeParse(item);
    if (!v.success) continue;
    out.push({ field: v.data.field, ...(v.data.description !== undefined ? { description: v.data.description } : {}), ...(v.data.reason !== undefined ? { reason: v.data.reason } : {}) });
    if (out.length >= MAX_VIOLATIONS) break;
  }
  return out;
}
