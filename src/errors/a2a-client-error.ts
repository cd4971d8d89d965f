import type { A2AErrorKind, ConnectionReason, FailurePhase, ValidationIssue } from './kinds.js';
import type { ProblemDetails, RpcStatus } from './problem.js';
import type { ErrorDetails } from './rpc-details.js';

const BRAND = Symbol.for('a2a-resilient.A2AClientError');

/** The fields set only when given, in the order a printed error shows them (after `kind`, `retryable`, `ambiguous`). */
const OPTIONAL_FIELDS = [
  'agent', 'method', 'retryAfterMs', 'status', 'code', 'a2aName', 'grpcCode', 'grpcStatus', 'reason', 'phase', 'field',
  'issues', 'location', 'redirects', 'headers', 'problem', 'rpcStatus', 'details', 'data', 'bodyText', 'failures',
] as const satisfies readonly (keyof A2AClientErrorInit)[];

/**
 * The one machine-branchable description of a remote failure, whatever it came from: a socket, an
 * HTTP status, a JSON-RPC error, a problem+json body, or a failed task's metadata. A plain object.
 *
 * Branch on `source` first (did the agent report the failure, or did the path to it fail?), then on
 * `retryable` / `ambiguous` (may a repeat succeed, could it run a send twice?), then on `code` or
 * `type`. Never on `message`.
 */
export interface ResponseError {
  /**
   * The family of the failure. When the agent reported it (`source: 'agent'`), the agent's own
   * `error_type` as it sent it (any string: `quota_exceeded`, `flow_error`, …), else `flow_error`. When
   * the path failed (`source: 'path'`), one of the SDK's own: one per `A2AClientError` kind
   * (`transport_error`, `timeout_error`, `http_error`, `protocol_error`, `aborted`, `circuit_open`,
   * `overloaded`, `insufficient_results`), `converter_error` (a converter threw), `canceled` (a
   * `fanOut` target cancelled once enough had answered). Tell the agent's failures from the path's by
   * `source`, not by `type`: an agent may send any type, `flow_error` included.
   */
  type: string;
  /**
   * Who reported the failure. `'agent'`: the agent answered, and its answer is a failure — a task
   * that ended `failed`, `rejected` or `canceled`, or a structured error (`error_type`, `error_code`,
   * …) in a task's or message's metadata; `type` and `code` are then the agent's own. `'path'`: no
   * usable answer came — the connection, a timeout, an HTTP or JSON-RPC error status, an invalid
   * response, a stream that ended early, or the SDK's own refusal (breaker open, retry budget,
   * bulkhead, unsupported operation, the caller's abort); `cause` then holds the `A2AClientError`
   * behind it, when there is one.
   */
  source: 'agent' | 'path';
  /** For people. */
  message: string;
  /**
   * A string, always (`A2AClientError.code` is a number: the JSON-RPC code). `source: 'agent'`: the
   * agent's `error_code` (a number sent as `40401` reads `"40401"`), absent when it sent none.
   * `source: 'path'`: always set — the JSON-RPC code as a decimal string (`-32603` → `"-32603"`), else
   * the HTTP status when the status is the failure (`"503"`), else the `A2AClientError` kind
   * (`"read-timeout"`, `"circuit-open"`), else the SDK's own code for a failure without a client error
   * behind it (`"stream_incomplete"`, `"converter_error"`, `"settled"`, `"push_buffer_overflow"`).
   */
  code?: string;
  /** The parameter the failure is about, when the agent said so. */
  param?: string;
  /**
   * Whether repeating the same request may succeed (a 503, a 429, a −32603, a timeout: yes; a
   * −32602, a refused credential, a certificate error, a failed task: no). Always a boolean. Whether
   * the SDK repeated it is in the cause's `attempts`.
   */
  retryable: boolean;
  /**
   * The failure may have come after the agent acted, so a repeat of a send could run it twice
   * (a bare 500/502/504/−32603, a timeout after sending). Always a boolean: `false` when a repeat
   * cannot double it (and for the agent's own reports: the agent said what happened).
   */
  ambiguous: boolean;
  /** How long the agent asked to wait before repeating. */
  retryAfterMs?: number;
  /** Correlation id for the agent's logs. */
  traceId?: string;
  /** The error behind this one, when the failure was a client error. */
  cause?: A2AClientError;
}

/**
 * One failure behind an `insufficient-results` error: a `failed` or `skipped` entry of the fan-out,
 * named by its target so that agents whose cards share a name stay apart.
 */
export interface FanOutFailure {
  /** The agent's name (its card name). */
  agent: string;
  /** The target's `label`, else the agent's card name. */
  label: string;
  /** The target's position in the `targets` array given to `fanOut`. */
  index: number;
  /** Its failure. */
  error: ResponseError;
}

/** Fields an {@link A2AClientError} is built from. Only `kind` and `message` are required. */
export interface A2AClientErrorInit {
  /** What failed (see `ERROR_KINDS`). */
  kind: A2AErrorKind;
  /** For people. Never contains secrets (Authorization values, API keys). */
  message: string;
  /** The underlying error, kept as the error's `cause`. */
  cause?: unknown;
  /** Name of the remote agent (its card name, else its origin). */
  agent?: string;
  /** Protocol-independent method name, e.g. `sendMessage`. */
  method?: string;
  /**
   * Whether repeating the request may succeed (a 503, a 429, a −32603, a timeout, a reset: yes; a
   * −32602, a refused credential, a certificate error, an invalid response: no) — whether the SDK
   * repeated it is what `attempts` shows.
   */
  retryable?: boolean;
  /**
   * The failure may have come after the agent acted on a request that is not idempotent: a repeat of
   * the send could run it twice (a bare 500/502/504/−32603, a timeout or reset after sending, a
   * stream that failed after its first event). `false` (the default) for refusals (429/503),
   * before-send failures and everything else.
   */
  ambiguous?: boolean;
  /** How long to wait before trying again, in ms. */
  retryAfterMs?: number;
  /** Each attempt's own error, in order. */
  attempts?: readonly A2AClientError[];
  /** HTTP status (kind `http`; also set when a JSON-RPC error came with a non-2xx status). */
  status?: number;
  /** Response headers, lower-cased names (kind `http`, and wherever a response was received). */
  headers?: Readonly<Record<string, string>>;
  /** A parsed `application/problem+json` body (RFC 9457 plus the agent extensions). */
  problem?: ProblemDetails;
  /** A parsed `google.rpc.Status` body (`{ error: { code, status, message, details } }`). */
  rpcStatus?: RpcStatus;
  /** The response body as text, truncated to a few KiB (kind `http`, `invalid-response`). */
  bodyText?: string;
  /**
   * The JSON-RPC error code, a number (kind `json-rpc`; also kind `http` when a REST error body carried
   * one). Unset on every other failure. `ResponseError.code` is this number as a decimal string.
   */
  code?: number;
  /** JSON-RPC `error.data`, as sent (kind `json-rpc`). */
  data?: unknown;
  /**
   * What the server's typed `google.rpc` details say (ErrorInfo `reason` / `domain` / `metadata`,
   * RetryInfo delay, BadRequest field violations), from JSON-RPC `error.data` or a REST
   * `google.rpc.Status` body.
   */
  details?: ErrorDetails;
  /**
   * The A2A name of the error, e.g. `TaskNotCancelable`: from an A2A JSON-RPC code, else a
   * `google.rpc.ErrorInfo` reason, else a standard JSON-RPC code; on REST from the ErrorInfo reason or
   * a v0.3 body's code, never from the HTTP status alone — the same on every binding and in both A2A
   * 1.0.0 and 1.0.1 (whose REST statuses differ: 409 / 400, 415 / 400, 502 / 500).
   */
  a2aName?: string;
  /** The offending field or path (kinds `invalid-response`, `card`). */
  field?: string;
  /** Validation issues behind an `invalid-response` / `card` error. */
  issues?: readonly ValidationIssue[];
  /** What kind of connection failure it was (kind `connection`). */
  reason?: ConnectionReason;
  /** How far the request got; `before-send` failures are always safe to retry. */
  phase?: FailurePhase;
  /** Each failure behind an `insufficient-results` error (see {@link FanOutFailure}). */
  failures?: readonly FanOutFailure[];
  /**
   * Where a redirect pointed (kind `http`: an RPC call answered 3xx, which is never followed), as
   * errors show URLs: no credentials, query or fragment.
   */
  location?: string;
  /**
   * The URLs of a card fetch's redirect chain, first requested to last `Location`, as errors show URLs
   * (no credentials, query or fragment; a non-HTTP(S) target only as its scheme).
   */
  redirects?: readonly string[];
  /** The gRPC status code (0–16) of a failed gRPC call; `status` then holds the HTTP status google.rpc maps it to. */
  grpcCode?: number;
  /** The gRPC status code's name, e.g. `UNAVAILABLE`, `NOT_FOUND`. */
  grpcStatus?: string;
}

/**
 * The one error type the SDK throws. Narrow on `kind` (and `code` for JSON-RPC errors), never on
 * `message`. The underlying error is kept as `cause`; every attempt's error is kept in `attempts`.
 */
export class A2AClientError extends Error {
  /** Always `A2AClientError`. */
  override readonly name = 'A2AClientError';
  /** What failed; narrow on it (see `ERROR_KINDS`). */
  readonly kind: A2AErrorKind;
  /** Name of the remote agent (its card name, else its origin; for discovery, the URL). */
  declare readonly agent: string | undefined;
  /** Protocol-independent method name, e.g. `sendMessage`. */
  declare readonly method: string | undefined;
  /** Whether repeating the request may succeed (see {@link A2AClientErrorInit.retryable}); always a boolean. */
  readonly retryable: boolean;
  /** A repeat of the send could run it twice (see {@link A2AClientErrorInit.ambiguous}); always a boolean. */
  readonly ambiguous: boolean;
  /** How long to wait before trying again: the server's own delay, or the time until the breaker half-opens. */
  declare readonly retryAfterMs: number | undefined;
  /** Each attempt's own error, in order (a long-resumed stream keeps its latest 64): nothing that happened is lost. */
  declare readonly attempts: readonly A2AClientError[];
  /** HTTP status (see {@link A2AClientErrorInit.status}). */
  declare readonly status: number | undefined;
  /** Response headers, lower-cased names, secrets redacted. */
  declare readonly headers: Readonly<Record<string, string>> | undefined;
  /** A parsed `application/problem+json` body. */
  declare readonly problem: ProblemDetails | undefined;
  /** A parsed `google.rpc.Status` body. */
  declare readonly rpcStatus: RpcStatus | undefined;
  /** The response body as text, truncated to a few KiB. */
  declare readonly bodyText: string | undefined;
  /** The JSON-RPC error code, a number; unset unless the agent answered with one (see {@link A2AClientErrorInit.code}). */
  declare readonly code: number | undefined;
  /** JSON-RPC `error.data`, as sent. */
  declare readonly data: unknown;
  /** What the server's typed `google.rpc` details say (see {@link A2AClientErrorInit.details}). */
  declare readonly details: ErrorDetails | undefined;
  /** The A2A name of the error, e.g. `TaskNotFound`, the same on every binding (see {@link A2AClientErrorInit.a2aName}). */
  declare readonly a2aName: string | undefined;
  /** The offending field or path (kinds `invalid-response`, `card`). */
  declare readonly field: string | undefined;
  /** Validation issues behind an `invalid-response` / `card` error. */
  declare readonly issues: readonly ValidationIssue[] | undefined;
  /** What kind of connection failure it was (kind `connection`). */
  declare readonly reason: ConnectionReason | undefined;
  /** How far the request got: `before-send` or `after-send`. */
  declare readonly phase: FailurePhase | undefined;
  /** Each failure behind an `insufficient-results` error, `label` and `index` naming its target. */
  declare readonly failures: readonly FanOutFailure[] | undefined;
  /** Where an RPC call's redirect pointed (never followed). */
  declare readonly location: string | undefined;
  /** The URLs of a card fetch's redirect chain. */
  declare readonly redirects: readonly string[] | undefined;
  /** The gRPC status code (0–16) of a failed gRPC call. */
  declare readonly grpcCode: number | undefined;
  /** The gRPC status code's name, e.g. `UNAVAILABLE`. */
  declare readonly grpcStatus: string | undefined;

  /**
   * Builds the error from its fields; the client makes these, code of yours rarely needs to (tests,
   * adapters). A field not given is absent (not an own property), so a printed error
   * (`console.log`, `util.inspect`, an uncaught error) shows only what is set; `attempts` is shown only
   * when there are some.
   */
  constructor(init: A2AClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.retryable = init.retryable ?? false;
    this.ambiguous = init.ambiguous ?? false;
    for (const key of OPTIONAL_FIELDS) {
      const value = init[key];
      if (value !== undefined) Object.defineProperty(this, key, { value, enumerable: true, writable: true, configurable: true });
    }
    const attempts = init.attempts ?? [];
    Object.defineProperty(this, 'attempts', { value: attempts, enumerable: attempts.length > 0, writable: true, configurable: true });
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A copy with some fields replaced; `cause` and the stack are kept. */
  with(fields: Partial<Omit<A2AClientErrorInit, 'kind' | 'cause'>>): A2AClientError {
    return copyWith(this, fields);
  }

  /** The fields this error was built from. */
  toInit(): A2AClientErrorInit {
    const init: A2AClientErrorInit = { kind: this.kind, message: this.message, cause: this.cause, retryable: this.retryable, ambiguous: this.ambiguous, attempts: this.attempts };
    // The rest in the order a printed error shows them (toJSON keeps it).
    for (const key of OPTIONAL_FIELDS) (init as unknown as Record<string, unknown>)[key] = this[key];
    return init;
  }

  /** A plain, serialisable view (no `cause` stack, attempts as their own JSON). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, kind: this.kind, message: this.message };
    const init = this.toInit();
    for (const [key, value] of Object.entries(init)) {
      if (key === 'cause' || key === 'kind' || key === 'message' || value === undefined) continue;
      if (key === 'attempts') {
        if (this.attempts.length > 0) out.attempts = this.attempts.map((a) => a.toJSON());
        continue;
      }
      if (key === 'failures' && this.failures) {
        out.failures = this.failures.map((f) => {
          const { cause, ...error } = f.error;
          return { ...f, error: cause === undefined ? error : { ...error, cause: cause.toJSON() } };
        });
        continue;
      }
      out[key] = value;
    }
    return out;
  }
}

// Outside the class body on purpose: a class that names itself inside its body is bundled (esbuild) as
// `class _A2AClientError`, and that name is what Node prints.
function copyWith(error: A2AClientError, fields: Partial<Omit<A2AClientErrorInit, 'kind' | 'cause'>>): A2AClientError {
  const copy = new A2AClientError({ ...error.toInit(), ...fields });
  copy.stack = error.stack;
  return copy;
}

/** True for an {@link A2AClientError}, also one created by another loaded copy of this package. */
export function isA2AClientError(value: unknown): value is A2AClientError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
