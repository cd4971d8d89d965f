/**
 * An `application/problem+json` body (RFC 9457) with the extensions agents add for retries and
 * tracing (`is_retriable`, `retry_after_ms`, `retry_after_seconds`, `trace_id`, …). Unknown members are kept.
 */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  is_retriable?: boolean;
  retry_after_ms?: number;
  retry_after_seconds?: number;
  trace_id?: string;
  doc_uri?: string;
  suggestions?: string[];
  errors?: ProblemDetails[];
  [extension: string]: unknown;
}

/** A `google.rpc.Status` error body, the inner object of `{ "error": { … } }` (A2A v1.0 REST). */
export interface RpcStatus {
  code?: number;
  status?: string;
  message?: string;
  /** Typed details keyed by `@type`, e.g. `google.rpc.ErrorInfo`, `google.rpc.RetryInfo`. */
  details?: Array<Record<string, unknown>>;
  [extension: string]: unknown;
}
