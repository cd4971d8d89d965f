import type { A2AErrorKind, ConnectionReason, FailurePhase } from './kinds.js';
import type { ProblemDetails, RpcStatus } from './problem.js';
import type { ErrorDetails } from './rpc-details.js';

const BRAND = Symbol.for('a2a-resilient.A2AClientError');

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
   * stream that failed after its first event). Absent for refusals (429/503) and before-send failures.
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
  /** JSON-RPC error code (kind `json-rpc`; also kind `http` when a REST error body carried one). */
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
  issues?: readonly {
    /** Where, e.g. `result.status.state`. */
    path: string;
    /** What is wrong there. */
    message: string;
  }[];
  /** What kind of connection failure it was (kind `connection`). */
  reason?: ConnectionReason;
  /** How far the request got; `before-send` failures are always safe to retry. */
  phase?: FailurePhase;
  /** Each failure behind an `insufficient-results` error. */
  failures?: readonly {
    /** The agent that failed. */
    agent: string;
    /** Its failure. */
    error: unknown;
  }[];
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
  readonly agent: string | undefined;
  /** Protocol-independent method name, e.g. `sendMessage`. */
  readonly method: string | undefined;
  /** Whether repeating the request may succeed (see {@link A2AClientErrorInit.retryable}). */
  readonly retryable: boolean;
  /** A repeat of the send could run it twice (see {@link A2AClientErrorInit.ambiguous}). */
  readonly ambiguous: boolean | undefined;
  /** How long to wait before trying again: the server's own delay, or the time until the breaker half-opens. */
  readonly retryAfterMs: number | undefined;
  /** Each attempt's own error, in order (a long-resumed stream keeps its latest 64): nothing that happened is lost. */
  readonly attempts: readonly A2AClientError[];
  /** HTTP status (see {@link A2AClientErrorInit.status}). */
  readonly status: number | undefined;
  /** Response headers, lower-cased names, secrets redacted. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** A parsed `application/problem+json` body. */
  readonly problem: ProblemDetails | undefined;
  /** A parsed `google.rpc.Status` body. */
  readonly rpcStatus: RpcStatus | undefined;
  /** The response body as text, truncated to a few KiB. */
  readonly bodyText: string | undefined;
  /** JSON-RPC error code (see {@link A2AClientErrorInit.code}). */
  readonly code: number | undefined;
  /** JSON-RPC `error.data`, as sent. */
  readonly data: unknown;
  /** What the server's typed `google.rpc` details say (see {@link A2AClientErrorInit.details}). */
  readonly details: ErrorDetails | undefined;
  /** The A2A name of the error, e.g. `TaskNotFound`, the same on every binding (see {@link A2AClientErrorInit.a2aName}). */
  readonly a2aName: string | undefined;
  /** The offending field or path (kinds `invalid-response`, `card`). */
  readonly field: string | undefined;
  /** Validation issues behind an `invalid-response` / `card` error. */
  readonly issues:
    | readonly {
        /** Where, e.g. `result.status.state`. */
        path: string;
        /** What is wrong there. */
        message: string;
      }[]
    | undefined;
  /** What kind of connection failure it was (kind `connection`). */
  readonly reason: ConnectionReason | undefined;
  /** How far the request got: `before-send` or `after-send`. */
  readonly phase: FailurePhase | undefined;
  /** Each failure behind an `insufficient-results` error. */
  readonly failures:
    | readonly {
        /** The agent that failed. */
        agent: string;
        /** Its failure. */
        error: unknown;
      }[]
    | undefined;
  /** Where an RPC call's redirect pointed (never followed). */
  readonly location: string | undefined;
  /** The URLs of a card fetch's redirect chain. */
  readonly redirects: readonly string[] | undefined;
  /** The gRPC status code (0–16) of a failed gRPC call. */
  readonly grpcCode: number | undefined;
  /** The gRPC status code's name, e.g. `UNAVAILABLE`. */
  readonly grpcStatus: string | undefined;

  /** Builds the error from its fields; the client makes these, code of yours rarely needs to (tests, adapters). */
  constructor(init: A2AClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.agent = init.agent;
    this.method = init.method;
    this.retryable = init.retryable ?? false;
    this.ambiguous = init.ambiguous;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? [];
    this.status = init.status;
    this.headers = init.headers;
    this.problem = init.problem;
    this.rpcStatus = init.rpcStatus;
    this.bodyText = init.bodyText;
    this.code = init.code;
    this.data = init.data;
    this.details = init.details;
    this.a2aName = init.a2aName;
    this.field = init.field;
    this.issues = init.issues;
    this.reason = init.reason;
    this.phase = init.phase;
    this.failures = init.failures;
    this.location = init.location;
    this.redirects = init.redirects;
    this.grpcCode = init.grpcCode;
    this.grpcStatus = init.grpcStatus;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A copy with some fields replaced; `cause` and the stack are kept. */
  with(fields: Partial<Omit<A2AClientErrorInit, 'kind' | 'cause'>>): A2AClientError {
    const copy = new A2AClientError({ ...this.toInit(), ...fields });
    copy.stack = this.stack;
    return copy;
  }

  /** The fields this error was built from. */
  toInit(): A2AClientErrorInit {
    return {
      kind: this.kind,
      message: this.message,
      cause: this.cause,
      agent: this.agent,
      method: this.method,
      retryable: this.retryable,
      ambiguous: this.ambiguous,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
      status: this.status,
      headers: this.headers,
      problem: this.problem,
      rpcStatus: this.rpcStatus,
      bodyText: this.bodyText,
      code: this.code,
      data: this.data,
      details: this.details,
      a2aName: this.a2aName,
      field: this.field,
      issues: this.issues,
      reason: this.reason,
      phase: this.phase,
      failures: this.failures,
      location: this.location,
      redirects: this.redirects,
      grpcCode: this.grpcCode,
      grpcStatus: this.grpcStatus,
    };
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
        out.failures = this.failures.map((f) => ({
          agent: f.agent,
          error: isA2AClientError(f.error) ? f.error.toJSON() : f.error,
        }));
        continue;
      }
      out[key] = value;
    }
    return out;
  }
}

/** True for an {@link A2AClientError}, also one created by another loaded copy of this package. */
export function isA2AClientError(value: unknown): value is A2AClientError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
