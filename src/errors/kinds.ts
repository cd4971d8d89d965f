/**
 * The discriminant of every {@link A2AClientError}. Callers branch on it (and on `code` for JSON-RPC
 * errors), never on the message.
 */
export type A2AErrorKind =
  /** Opening the connection took longer than `timeouts.connectMs`. Nothing was sent. */
  | 'connect-timeout'
  /** Response headers, or the next chunk of a unary body, took longer than `timeouts.readMs`. */
  | 'read-timeout'
  /** The gap between two SSE events exceeded `timeouts.streamIdleMs`. */
  | 'idle-timeout'
  /** The call's one deadline (`timeouts.totalMs`, over every attempt and wait) ran out. */
  | 'deadline-exceeded'
  /** The caller's `AbortSignal` fired; its `reason` is the `cause`. */
  | 'aborted'
  /** The connection failed: refused, reset, closed early, DNS or TLS failure (see `reason`). */
  | 'connection'
  /** The server answered with a non-success HTTP status (see `status`, `headers`, `problem`). */
  | 'http'
  /** The server answered with a JSON-RPC error object (see `code`, `data`, `a2aName`). */
  | 'json-rpc'
  /** The answer could not be used: bad JSON, schema mismatch, id mismatch, oversize (see `field`). */
  | 'invalid-response'
  /** The agent's circuit breaker is open; `retryAfterMs` is the time until it half-opens. */
  | 'circuit-open'
  /** The agent's retry budget is spent; the underlying error is the `cause`. */
  | 'budget-exhausted'
  /** The agent's concurrency limit (`maxConcurrent`) and queue are full. */
  | 'bulkhead-rejected'
  /** The agent or protocol version does not support the operation. */
  | 'unsupported'
  /** The agent card could not be fetched or failed validation (see `field`). */
  | 'card'
  /** `fanOut` got fewer successes than `minResults`; `failures` holds each one. */
  | 'insufficient-results';

/** Every kind, for exhaustive tables and tests. */
export const ERROR_KINDS: readonly A2AErrorKind[] = [
  'connect-timeout',
  'read-timeout',
  'idle-timeout',
  'deadline-exceeded',
  'aborted',
  'connection',
  'http',
  'json-rpc',
  'invalid-response',
  'circuit-open',
  'budget-exhausted',
  'bulkhead-rejected',
  'unsupported',
  'card',
  'insufficient-results',
];

/**
 * What kind of connection failure a `connection` error was. `tls`: the TLS handshake failed — with
 * `phase: 'before-send'` a certificate that did not verify or that the agent refused (configuration:
 * never retried). `proxy`: the proxy refused to connect to the agent (its HTTP answer in `status`:
 * 407 means the proxy's credentials were missing or refused); the agent was never reached.
 */
export type ConnectionReason = 'refused' | 'reset' | 'closed' | 'dns' | 'tls' | 'proxy' | 'other';

/**
 * How far the request got before it failed. Decides whether a retry is safe:
 * `before-send` failures never reached the server; `after-send` ones may have been processed.
 */
export type FailurePhase = 'before-send' | 'after-send';

/** One validation issue behind an `invalid-response` or `card` error. */
export interface ValidationIssue {
  /** Where, e.g. `result.status.state`. */
  path: string;
  /** What is wrong there. */
  message: string;
}
