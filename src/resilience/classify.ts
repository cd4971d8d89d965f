import type { A2AClientError } from '../errors/a2a-client-error.js';
import { challengeOf } from '../errors/auth-refusal.js';
import { hintsOf } from '../errors/hints.js';
import { isRedirectStatus } from '../errors/redirect.js';
import type { RetryOptions } from './options.js';

/**
 * What {@link classify} decided about one failed attempt. Plain data. Two questions are kept apart:
 * `retryable` — may the SDK repeat this request now, for this method (a send is repeated only when
 * that is safe); `transient` — may repeating it succeed at all (what the error's own `retryable`
 * tells the caller, whether or not the SDK repeated it).
 */
export interface Classification {
  /** The SDK may repeat the request now: it is safe for this method and may succeed. */
  retryable: boolean;
  /**
   * Repeating the request may succeed (a 503, a 429, a −32603, a timeout, a reset: yes; a −32602, a
   * refused credential, a certificate error, an invalid response, a server's `retryable: false`: no).
   * Becomes the final error's `retryable`. Independent of the method: a bare −32603 on a send is
   * `transient` but not `retryable`.
   */
  transient: boolean;
  /**
   * The failure may have come after the agent acted on a request that is not idempotent: repeating
   * it could run it twice (a bare 500/502/504/−32603/−32006, a timeout or reset after sending, on a
   * send). Never set for idempotent methods, refusals (429/503) or failures before sending.
   */
  ambiguous: boolean;
  /** The delay the server asked for (unclamped), when it asked. */
  delayMs?: number;
  /** The failure says the agent is unhealthy: it counts towards opening the circuit breaker. */
  countsAsFailure: boolean;
  /** Which rule decided, for events and logs, e.g. `hint:no-retry`, `code:-32603`, `http:503`, `transport:before-send`. */
  reason: string;
  /**
   * The request may have reached the agent: false when it provably never left (refused, DNS, connect
   * timeout, a failure before sending) or the SDK refused it itself (open breaker, budget, bulkhead).
   */
  sent: boolean;
}

/**
 * A rule's verdict: `transient` defaults to `retryable` (what may be repeated now may succeed) and
 * `ambiguous` to false; {@link classify} fills them in.
 */
type Verdict = Omit<Classification, 'transient' | 'ambiguous' | 'sent'> & { transient?: boolean; ambiguous?: boolean };

/** What {@link classify} needs to know about the call. */
export interface ClassifyContext {
  /** Protocol-independent method name, e.g. `sendMessage`. */
  method: string;
  /** Repeating the method cannot change the outcome (reads, cancel, delete). */
  idempotent: boolean;
  /** Only `ambiguous`, `retryableCodes` and `fatalCodes` are read. */
  options: Pick<RetryOptions, 'ambiguous' | 'retryableCodes' | 'fatalCodes'>;
}

/** JSON-RPC codes retryable by default (A2A): internal error, invalid agent response. */
export const DEFAULT_RETRYABLE_RPC_CODES: ReadonlySet<number> = new Set([-32603, -32006]);
/** HTTP statuses retryable by default. */
export const DEFAULT_RETRYABLE_HTTP: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);
/**
 * HTTP statuses that say the server refused the request without processing it (RFC 9110 §15.6.4
 * 503, RFC 6585 429: what load shedders and rate limiters answer): safe to repeat for every method,
 * sends included, even without a delay hint.
 */
export const REFUSAL_HTTP: ReadonlySet<number> = new Set([429, 503]);
/** Kinds of the SDK's own refusals and of the call's deadline: a later repeat may succeed. */
const TRANSIENT_KINDS: ReadonlySet<string> = new Set(['deadline-exceeded', 'circuit-open', 'budget-exhausted', 'bulkhead-rejected']);
/**
 * Methods that are not idempotent but resend the same `messageId` on a retry: `retry: { ambiguous:
 * true }` may repeat them after a failure that may have reached the agent.
 */
const SAME_MESSAGE_ID_METHODS: ReadonlySet<string> = new Set(['sendMessage', 'sendStreamingMessage']);

/**
 * Whether a code is retryable under the table: `fatalCodes` win, then `retryableCodes`, then the
 * defaults. Negative numbers are JSON-RPC codes, positive ones HTTP statuses (both overridable).
 */
function codeRetryable(code: number, options: ClassifyContext['options']): boolean {
  if (options.fatalCodes.includes(code)) return false;
  if (options.retryableCodes.includes(code)) return true;
  return code < 0 ? DEFAULT_RETRYABLE_RPC_CODES.has(code) : DEFAULT_RETRYABLE_HTTP.has(code);
}

/** Health failures from a status: 5xx, 429 and 408 (the agent is overloaded or broken). */
function statusIsHealthFailure(status: number | undefined): boolean {
  return status !== undefined && (status >= 500 || status === 429 || status === 408);
}

/**
 * Decides whether a failed attempt may be repeated now, after how long, whether repeating it may
 * succeed at all (`transient`), whether it may have run at the agent (`ambiguous`), and whether it
 * counts against the agent's health. Precedence:
 * 0. an authentication refusal (401, or 403 with an `insufficient_scope` challenge), or a redirect
 *    (301, 302, 303, 307, 308: RPC calls never follow one) → fatal and no health failure, whatever
 *    the server hints (the challenge repeat happens below the pipeline, once);
 * 1. an explicit "don't retry" from the server (`data.retryable: false`, `is_retriable: false`) → fatal;
 * 2. an explicit hint (`retryable: true`, or a delay: Retry-After, `retry_after_ms`, RetryInfo, …) →
 *    retried, for every method: the server says repeating is what it wants (a delay only in a
 *    response header — Retry-After, a spent RateLimit quota — does not turn a fatal JSON-RPC code
 *    retryable);
 * 3. the code table (JSON-RPC codes, HTTP statuses; overridable) → a fatal code is fatal; a bare
 *    429 or 503 is a refusal (the server did not process the request) and is retried for every
 *    method; another retryable code is retried for idempotent methods, but for a method that is not
 *    idempotent it is *ambiguous* (a bare −32603 or HTTP 500/502/504 may come after the agent ran:
 *    real servers do not deduplicate by `messageId`);
 * 4. the transport kind → failures that provably never sent the request (refused, DNS, connect
 *    timeout, `phase: 'before-send'`) are retried for every method; failures after sending (read or
 *    idle timeout, reset mid-response) are ambiguous.
 *
 * Ambiguous failures are retried for idempotent methods; for `sendMessage` / `sendStreamingMessage`
 * only when the call opts in with `retry: { ambiguous: true }` (the same `messageId` is resent); for
 * other non-idempotent methods never. `aborted`, `deadline-exceeded`, `invalid-response`,
 * `unsupported`, `card`, `circuit-open`, `budget-exhausted`, `bulkhead-rejected`,
 * `insufficient-results` are never retried by the loop; of them `deadline-exceeded`, `circuit-open`,
 * `budget-exhausted` and `bulkhead-rejected` are `transient` (a later call may succeed), and a
 * `deadline-exceeded` or `aborted` that cut a non-idempotent request after sending is `ambiguous`.
 * Health (`countsAsFailure`) does not depend on the method. Pure; never throws.
 */
export function classify(error: A2AClientError, ctx: ClassifyContext): Classification {
  const v = decide(error, ctx);
  return { ...v, transient: v.transient ?? v.retryable, ambiguous: v.ambiguous ?? false, sent: mayHaveReached(error) };
}

/** Kinds whose request never left: the SDK refused it, or could not build it. */
const NOT_SENT_KINDS: ReadonlySet<string> = new Set(['connect-timeout', 'circuit-open', 'budget-exhausted', 'bulkhead-rejected', 'unsupported', 'card', 'insufficient-results']);

/** Whether the failed request may have reached the agent (see {@link Classification.sent}). */
function mayHaveReached(error: A2AClientError): boolean {
  if (NOT_SENT_KINDS.has(error.kind) || error.phase === 'before-send') return false;
  switch (error.kind) {
    case 'connection':
      return error.phase === 'after-send' || (error.phase === undefined && error.reason !== 'refused' && error.reason !== 'dns' && error.reason !== 'proxy');
    case 'deadline-exceeded':
    case 'aborted':
      return error.phase === 'after-send';
    default:
      return true;
  }
}

/** The rules of {@link classify}, in its order. */
function decide(error: A2AClientError, ctx: ClassifyContext): Verdict {
  const remote = error.kind === 'http' || error.kind === 'json-rpc';
  // Refused credentials are never retried in a loop, whatever else the answer says: the client repeats
  // the request once with fresh headers when the agent sent a challenge (before this runs), not more.
  if (remote && (error.status === 401 || (error.status === 403 && challengeOf(error) !== undefined))) {
    return { retryable: false, countsAsFailure: false, reason: `auth:refused(${error.status})` };
  }
  // A redirect on an RPC call is configuration (the interface URL moved), not ill health: never repeated, whatever it hints.
  if (error.kind === 'http' && isRedirectStatus(error.status)) return { retryable: false, countsAsFailure: false, reason: `http:redirect(${error.status})` };
  if (remote) {
    const health = remoteHealth(error, ctx);
    const hints = hintsOf(error);
    if (hints.retryable === false) return { retryable: false, countsAsFailure: health, reason: `hint:no-retry(${hints.source ?? '?'})` };
    if (error.grpcCode !== undefined && hints.retryAfterMs === undefined && hints.retryable === undefined) return grpcStatus(error, error.grpcCode, ctx, health);
    const code = error.kind === 'json-rpc' && error.code !== undefined ? error.code : error.status;
    const what = error.kind === 'json-rpc' && error.code !== undefined ? `code:${code}` : `http:${code}`;
    const fatal = code !== undefined && !codeRetryable(code, ctx.options);
    // A delay asks for a retry: in the error itself, or in a response header of an HTTP error
    // (gateways rate-limit with 403 + Retry-After). A JSON-RPC error's own code outranks a delay
    // that only a response header carries (response-wide, often added by a proxy).
    const headerOnly = hints.source?.startsWith('header:') === true;
    if (hints.retryAfterMs !== undefined && !(fatal && headerOnly && error.kind === 'json-rpc')) {
      return { retryable: true, delayMs: hints.retryAfterMs, countsAsFailure: health, reason: `hint:delay(${hints.source ?? '?'})` };
    }
    if (hints.retryable === true) return { retryable: true, countsAsFailure: health, reason: `hint:retry(${hints.source ?? '?'})` };
    if (code === undefined) return { retryable: false, countsAsFailure: health, reason: `${error.kind}:no-code` };
    if (fatal) return { retryable: false, countsAsFailure: health, reason: what };
    // A bare refusal: the server says it did not process the request, so repeating is safe for sends too.
    if (error.kind === 'http' && REFUSAL_HTTP.has(code)) return { retryable: true, countsAsFailure: health, reason: `${what}:refused` };
    return ambiguous(ctx, what, health);
  }
  switch (error.kind) {
    case 'connect-timeout':
      return { retryable: true, countsAsFailure: true, reason: 'transport:before-send' };
    case 'connection':
      // A certificate that does not verify or that the agent refuses is configuration: it fails the
      // same way every time, and it says nothing about the agent's health (one misconfigured client
      // must not open the breaker its origin shares with every other client of the process).
      if (error.reason === 'tls' && error.phase === 'before-send') return { retryable: false, countsAsFailure: false, reason: 'transport:tls-certificate' };
      // The proxy answered for the agent: a 4xx (407 credentials, 403 policy) is configuration and not
      // the agent's fault; a 5xx says the proxy could not reach the agent, like a refused connection.
      if (error.reason === 'proxy') {
        const unreachable = error.status !== undefined && error.status >= 500;
        return { retryable: unreachable, countsAsFailure: unreachable, reason: `transport:proxy(${error.status ?? '?'})` };
      }
      if (error.phase === 'before-send' || (error.phase === undefined && (error.reason === 'refused' || error.reason === 'dns'))) {
        return { retryable: true, countsAsFailure: true, reason: 'transport:before-send' };
      }
      return ambiguous(ctx, `transport:after-send(connection:${error.reason ?? 'other'})`, true);
    case 'read-timeout':
    case 'idle-timeout':
      return ambiguous(ctx, `transport:after-send(${error.kind})`, true);
    default: {
      // A deadline or abort that cut a request after sending it: the agent may have acted on it.
      const cutAfterSend = (error.kind === 'deadline-exceeded' || error.kind === 'aborted') && error.phase === 'after-send' && !ctx.idempotent;
      return { retryable: false, transient: TRANSIENT_KINDS.has(error.kind), ambiguous: cutAfterSend, countsAsFailure: false, reason: `kind:${error.kind}` };
    }
  }
}

/** gRPC codes the agent sends when it refused the request unprocessed (like HTTP 429): safe to repeat, sends included. */
const GRPC_REFUSED: ReadonlySet<number> = new Set([8]);
/**
 * gRPC codes worth repeating, that may come after the agent acted: UNKNOWN, DEADLINE_EXCEEDED (the
 * agent's own), ABORTED, INTERNAL, UNAVAILABLE (gRFC A6: none proves a send was not processed).
 */
const GRPC_TRANSIENT: ReadonlySet<number> = new Set([2, 4, 10, 13, 14]);

/**
 * Step 3 for a status a gRPC agent sent without a hint: RESOURCE_EXHAUSTED is a refusal (retried for
 * every method); the transient codes are retried for idempotent methods and ambiguous for sends; the
 * rest are fatal. `fatalCodes` / `retryableCodes` apply to the HTTP status the code maps to.
 */
function grpcStatus(error: A2AClientError, code: number, ctx: ClassifyContext, health: boolean): Verdict {
  const what = `grpc:${error.grpcStatus ?? code}`;
  const status = error.status;
  if (status !== undefined && ctx.options.fatalCodes.includes(status)) return { retryable: false, countsAsFailure: health, reason: what };
  if (GRPC_REFUSED.has(code)) return { retryable: true, countsAsFailure: health, reason: `${what}:refused` };
  if (GRPC_TRANSIENT.has(code) || (status !== undefined && ctx.options.retryableCodes.includes(status))) return ambiguous(ctx, what, health);
  return { retryable: false, countsAsFailure: health, reason: what };
}

/**
 * A failure that may have happened after the agent acted on the request: retried for idempotent
 * methods, for sends only with `ambiguous: true`, never for other non-idempotent methods.
 */
function ambiguous(ctx: ClassifyContext, what: string, health: boolean): Verdict {
  if (ctx.idempotent) return { retryable: true, countsAsFailure: health, reason: `${what}:idempotent` };
  const may = { transient: true, ambiguous: true, countsAsFailure: health };
  if (SAME_MESSAGE_ID_METHODS.has(ctx.method)) {
    return ctx.options.ambiguous
      ? { ...may, retryable: true, reason: `${what}:ambiguous-opt-in` }
      : { ...may, retryable: false, reason: `${what}:ambiguous-send(may have reached the agent; opt in with retry.ambiguous)` };
  }
  return { ...may, retryable: false, reason: `${what}:not-idempotent` };
}

/** Health failure for http / json-rpc errors: 5xx, 429, 408, or a JSON-RPC code the table calls retryable. */
function remoteHealth(error: A2AClientError, ctx: ClassifyContext): boolean {
  if (error.kind === 'json-rpc') {
    return (error.code !== undefined && codeRetryable(error.code, ctx.options)) || statusIsHealthFailure(error.status);
  }
  if (error.kind === 'http') return statusIsHealthFailure(error.status);
  return false;
}
