import type { A2AClientError } from './a2a-client-error.js';

/**
 * The one machine-branchable description of a remote failure, whatever it came from: a socket, an
 * HTTP status, a JSON-RPC error, a problem+json body, or a failed task's metadata. A plain object.
 */
export interface ResponseError {
  /** Family of the failure, e.g. `flow_error`, `transport_error`, `timeout_error`, `protocol_error`. */
  type: string;
  /** For people. */
  message: string;
  /** Business or protocol code; numeric codes as decimal strings (`-32603` → `"-32603"`). */
  code?: string;
  /** The parameter the failure is about, when the agent said so. */
  param?: string;
  /**
   * Whether repeating the same request may succeed (a 503, a 429, a −32603, a timeout: yes; a
   * −32602, a refused credential, a certificate error: no). Whether the SDK repeated it is in the
   * cause's `attempts`.
   */
  retryable?: boolean;
  /**
   * The failure may have come after the agent acted, so a repeat of a send could run it twice
   * (a bare 500/502/504/−32603, a timeout after sending). Absent when a repeat cannot double it.
   */
  ambiguous?: boolean;
  /** How long the agent asked to wait before repeating. */
  retryAfterMs?: number;
  /** Correlation id for the agent's logs. */
  traceId?: string;
  /** The error behind this one, when the failure was a client error. */
  cause?: A2AClientError;
}
