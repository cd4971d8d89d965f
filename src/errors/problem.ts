/**
 * An `application/problem+json` body (RFC 9457) with the extensions agents add for retries and
 * tracing (`is_retriable`, `retry_after_ms`, `retry_after_seconds`, `trace_id`, …). Unknown members are kept.
 */
export interface ProblemDetails {
  /** A URI naming the problem type. */
  type?: string;
  /** A short summary of the problem type. */
  title?: string;
  /** The HTTP status the server meant. */
  status?: number;
  /** What went wrong this time, for people. */
  detail?: string;
  /** A URI naming this occurrence. */
  instance?: string;
  /** Whether repeating may succeed (an agent extension, read as a retry hint). */
  is_retriable?: boolean;
  /** How long to wait before repeating, in ms (read as a retry hint). */
  retry_after_ms?: number;
  /** How long to wait before repeating, in seconds (read as a retry hint). */
  retry_after_seconds?: number;
  /** The server's trace id for the failure. */
  trace_id?: string;
  /** Where the problem is documented. */
  doc_uri?: string;
  /** What the caller could do about it. */
  suggestions?: string[];
  /** Nested problems (one per failed item). */
  errors?: ProblemDetails[];
  [extension: string]: unknown;
}

/** A `google.rpc.Status` error body, the inner object of `{ "error": { … } }` (A2A v1.0 REST). */
export interface RpcStatus {
  /** The HTTP status (google.rpc error bodies carry the HTTP status here, not the gRPC code). */
  code?: number;
  /** The gRPC status name, e.g. `NOT_FOUND`. */
  status?: string;
  /** What went wrong, for people. */
  message?: string;
  /** Typed details keyed by `@type`, e.g. `google.rpc.ErrorInfo`, `google.rpc.RetryInfo`. */
  details?: Array<Record<string, unknown>>;
  [extension: string]: unknown;
}
