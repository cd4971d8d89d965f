import type { A2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard } from '../protocol/card-model.js';
import { a2aNameForCode } from '../protocol/error-codes.js';
import { backoffDelay, retryDelay } from './backoff.js';
import { classify, type Classification } from './classify.js';
import type { RetryOptions } from './options.js';
import { askRule, type RetryVerdict } from './retry-rule.js';

/** The shortest wait between resume rounds and between polls, whatever the backoff settings say. */
export const MIN_ROUND_MS = 25;
/** The first wait between two polls of `getTask` (a stream's poll fallback, `waitForTask`). */
export const FIRST_POLL_MS = 25;
/**
 * The longest wait between two polls: the interval doubles from {@link FIRST_POLL_MS} while the task
 * has not moved on and stays here (a settled task is seen within 2 s; an hour costs under 2 000
 * polls). A longer delay asked for by the agent is waited out instead.
 */
export const MAX_POLL_MS = 2_000;

/**
 * Kinds that are the SDK's own bounds, not failures of the agent: the deadline, the caller, the
 * retry budget, the bulkhead and an open breaker. Their verdict is final — the user's rule is not asked.
 */
const BOUNDS: ReadonlySet<string> = new Set(['deadline-exceeded', 'aborted', 'budget-exhausted', 'bulkhead-rejected', 'circuit-open']);

/**
 * The shortest wait between a send whose fate is unknown and its lookup: the agent gets time to
 * record the task it may have started (see {@link RetryPolicy.looksUp}).
 */
export const MIN_LOOKUP_DELAY_MS = 50;

/** The methods that send a message: not idempotent, looked up after an ambiguous failure. */
const SENDS: ReadonlySet<string> = new Set(['sendMessage', 'sendStreamingMessage']);

/** A2A errors that say a subscription cannot follow the task (the task itself may still be read). */
const CANNOT_FOLLOW: ReadonlySet<string | undefined> = new Set(['TaskNotFound', 'UnsupportedOperation', 'MethodNotFound']);

/** What a loop asks about one failure. */
export interface FailureContext {
  /** The method whose request failed, e.g. `sendMessage`, `subscribeToTask`, `getTask`. */
  method: string;
  /** 1-based: the attempt of a call, the resume round of a stream, the poll of a wait. */
  attempt: number;
}

/** A {@link RetryVerdict} after the user's rule, with what the loops need besides. */
export interface RetryDecision extends RetryVerdict {
  /** The delay the server asked for (unclamped), when it asked: reported on the final error. */
  serverDelayMs?: number | undefined;
  /** The failure says the agent is unhealthy (for the breaker). */
  countsAsFailure: boolean;
}

/**
 * The one answer to "try again?" for a client: built once from its retry settings and the agent's
 * card, asked by every loop — a call's retries, a stream's resume rounds, its polls, `waitForTask`'s
 * polls and the cancels — for every failure. It classifies the failure (the built-in rules, see
 * `classify`), computes the wait (backoff, the server's delay, the poll schedule), then asks the
 * user's `retry.shouldRetry`, whose answer stands within the bounds the loops still apply (deadline,
 * `maxAttempts`, budget, breaker). Nothing else in the SDK calls `classify`.
 */
export class RetryPolicy {
  readonly options: RetryOptions;
  readonly #card: AgentCard | undefined;

  constructor(options: RetryOptions, card?: AgentCard) {
    this.options = options;
    this.#card = card;
  }

  /** The same policy under other settings (a call's override). */
  with(options: RetryOptions): RetryPolicy {
    return options === this.options ? this : retryPolicy(options, this.#card);
  }

  /** The failure says the agent is unhealthy: it counts towards opening the breaker (whatever the method). */
  healthFailure(error: A2AClientError): boolean {
    return this.#classify(error, 'getTask', true).countsAsFailure;
  }

  /** Repeating `method` later may succeed: what the error's own `retryable` tells the caller. */
  transient(error: A2AClientError, method: string, idempotent: boolean): boolean {
    return this.#classify(error, method, idempotent).transient;
  }

  /** The failure may have come after the agent acted on `method`, which is not idempotent: a repeat could run it twice. */
  ambiguous(error: A2AClientError, method: string, idempotent: boolean): boolean {
    return this.#classify(error, method, idempotent).ambiguous;
  }

  /**
   * A failed attempt of a call (`idempotent` says whether repeating it is safe): repeat it, and after
   * how long (the server's delay, clamped to `maxServerDelayMs`, else the backoff), with the user's rule.
   */
  attemptFailed(error: A2AClientError, ctx: FailureContext & { idempotent: boolean }): RetryDecision {
    const c = this.#classify(error, ctx.method, ctx.idempotent);
    const verdict: RetryVerdict = { retry: c.retryable, delayMs: retryDelay(ctx.attempt, c.delayMs, this.options), transient: c.transient, ambiguous: c.ambiguous, reason: c.reason };
    return { ...this.#ruled(error, ctx, c, verdict), serverDelayMs: c.delayMs, countsAsFailure: c.countsAsFailure };
  }

  /**
   * A failure after which a stream or a wait would go on with a read (`next`: a resubscribe or a poll
   * of `getTask`, both idempotent): whether to, and after how long. An open breaker is waited out when
   * its half-open comes within `timeLeft` (the round after the wait is the probe); the budget, the
   * bulkhead, the deadline and the caller end it; any other failure goes on when it classifies as
   * retryable for a read and the delay it asks for fits within `timeLeft`. The wait: at least
   * {@link MIN_ROUND_MS}, the backoff of round `attempt` (resubscribe) or the poll schedule
   * ({@link pollDelay} of `quiet` polls without news), or the delay the failure asks for when longer.
   */
  roundFailed(error: A2AClientError, ctx: FailureContext & { next: 'resubscribe' | 'poll'; quiet?: number; timeLeft: number }): RetryDecision {
    const c = this.#classify(error, ctx.method, true);
    const asked = error.retryAfterMs ?? 0;
    const base = ctx.next === 'poll' ? this.pollDelay(ctx.quiet ?? ctx.attempt - 1) : backoffDelay(ctx.attempt, this.options);
    const delayMs = Math.max(MIN_ROUND_MS, base, asked);
    // A delay asked for must fit in the time left; without one the loop's own wait meets the deadline
    // (and ends the call with the deadline's error, the failure as its cause).
    const fits = error.retryAfterMs === undefined || error.retryAfterMs < ctx.timeLeft;
    const retry = error.kind === 'circuit-open' ? error.retryAfterMs !== undefined && fits : !BOUNDS.has(error.kind) && c.retryable && fits;
    const verdict: RetryVerdict = { retry, delayMs, transient: c.transient, ambiguous: c.ambiguous, reason: c.reason };
    return { ...this.#ruled(error, ctx, c, verdict), serverDelayMs: error.retryAfterMs, countsAsFailure: c.countsAsFailure };
  }

  /**
   * The final error of a send (`sendMessage`, `sendStreamingMessage`) leaves its fate unknown — it
   * failed after the request left (`ambiguous`), not at one of the SDK's own bounds — and
   * `retry.lookUpSends` is on: the agent is asked whether the send started a task before the error
   * reaches the caller (`send-lookup.ts`).
   */
  looksUp(error: A2AClientError, method: string): boolean {
    return this.options.lookUpSends && SENDS.has(method) && error.ambiguous === true && !BOUNDS.has(error.kind);
  }

  /**
   * The wait before looking up a send whose `attempt` failed: the backoff of that attempt, and at
   * least {@link MIN_LOOKUP_DELAY_MS}, so an agent that received the send has recorded its task.
   */
  lookupDelay(attempt: number): number {
    return Math.max(MIN_LOOKUP_DELAY_MS, backoffDelay(attempt, this.options));
  }

  /**
   * The lookup proved that the send whose `attempt` failed with `error` never started a task: repeat
   * it (with the same `messageId`), as a refusal before the agent acted is repeated — after the user's
   * rule (`sent: false`). Bounded by `maxAttempts`, the deadline and the budget like any repeat.
   */
  sendAbsent(error: A2AClientError, ctx: FailureContext): RetryVerdict {
    const verdict: RetryVerdict = { retry: true, delayMs: 0, transient: true, ambiguous: false, reason: 'lookup:absent' };
    const rule = this.options.shouldRetry;
    return rule === undefined ? verdict : askRule(rule, { error, method: ctx.method, attempt: ctx.attempt, card: this.#card, sent: false, verdict });
  }

  /**
   * Resubscribe cannot follow this task — poll `getTask` instead: kind `unsupported`, TaskNotFound,
   * UnsupportedOperation or MethodNotFound (JSON-RPC −32001, −32004, −32601, and by name on every
   * binding: REST answers UnsupportedOperation with 400, gRPC with FAILED_PRECONDITION, what A2A
   * servers say for a task already terminal), HTTP 404, 405 or 501. (A server whose live queue of the task is gone may still have it
   * for `getTask`.)
   */
  followsByPolling(error: A2AClientError): boolean {
    if (error.kind === 'unsupported' || error.a2aName === 'TaskNotFound' || error.a2aName === 'UnsupportedOperation') return true;
    if (error.kind === 'json-rpc') return error.code !== undefined && CANNOT_FOLLOW.has(a2aNameForCode(error.code));
    // gRPC says UnsupportedOperation (a task already terminal) with FAILED_PRECONDITION; in answer to a
    // subscribe, any FAILED_PRECONDITION means the task cannot be followed that way.
    if (error.grpcStatus === 'FAILED_PRECONDITION') return true;
    if (error.kind === 'http') return error.status === 404 || error.status === 405 || error.status === 501;
    return false;
  }

  /**
   * The wait before the next poll after `quiet` polls in a row that brought no news: {@link FIRST_POLL_MS},
   * doubling up to {@link MAX_POLL_MS} (and never past `retry.maxDelayMs` when that is shorter).
   */
  pollDelay(quiet: number): number {
    const cap = Math.max(MIN_ROUND_MS, Math.min(MAX_POLL_MS, this.options.maxDelayMs));
    return Math.min(cap, FIRST_POLL_MS * 2 ** Math.min(Math.max(0, quiet), 16));
  }

  /** The built-in classification of a failure of `method` (the SDK's only call of `classify`). */
  #classify(error: A2AClientError, method: string, idempotent: boolean): Classification {
    return classify(error, { method, idempotent, options: this.options });
  }

  /** The verdict with the user's rule applied (not asked for the SDK's own bounds). */
  #ruled(error: A2AClientError, ctx: FailureContext, c: Classification, verdict: RetryVerdict): RetryVerdict {
    const rule = this.options.shouldRetry;
    if (rule === undefined || BOUNDS.has(error.kind)) return verdict;
    return askRule(rule, { error, method: ctx.method, attempt: ctx.attempt, card: this.#card, sent: c.sent, verdict });
  }
}

/**
 * A {@link RetryPolicy} (a function outside the class, so the class does not name itself in its body and
 * a bundler keeps its name as written).
 */
export function retryPolicy(options: RetryOptions, card?: AgentCard): RetryPolicy {
  return new RetryPolicy(options, card);
}
