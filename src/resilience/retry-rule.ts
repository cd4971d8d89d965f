import type { A2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard } from '../protocol/card-model.js';
import { platform } from '../platform/current.js';

/** What the SDK would do about one failure (`retry.shouldRetry` sees it as `ctx.verdict`). */
export interface RetryVerdict {
  /** Repeat the request (a call's retry, a stream's resubscribe, another poll). */
  readonly retry: boolean;
  /** The wait before the repeat (the backoff, the server's delay, the poll schedule). */
  readonly delayMs: number;
  /** Repeating the request later may succeed: becomes the final error's `retryable`. */
  readonly transient: boolean;
  /** The failure may have come after the agent acted on a request that is not idempotent. */
  readonly ambiguous: boolean;
  /** Which rule decided, e.g. `code:-32603`, `http:503:refused`, `transport:before-send`, `rule:retry(…)`. */
  readonly reason: string;
}

/** What `retry.shouldRetry` is asked with: one failure of one loop. */
export interface RetryContext {
  /** The failure. Narrow on `kind` / `code` / `status`, as anywhere. */
  readonly error: A2AClientError;
  /** The method whose request failed: `sendMessage`, `getTask`, `subscribeToTask` (a stream's resume round), … */
  readonly method: string;
  /** 1-based: the attempt of a call, the resume round of a stream, the poll of a wait. */
  readonly attempt: number;
  /** The agent's card (`undefined` while the card itself is being fetched). */
  readonly card: AgentCard | undefined;
  /** Whether the request may have reached the agent (false: it provably never left, or the SDK refused it). */
  readonly sent: boolean;
  /** What the SDK would do without the rule. */
  readonly verdict: RetryVerdict;
}

/**
 * The answer of `retry.shouldRetry`: `true` repeat (after the verdict's wait), `false` don't,
 * `{ delayMs }` repeat after that long, `undefined` keep the verdict.
 */
export type RetryRuleAnswer =
  | boolean
  | {
      /** Repeat after this long (ms, ≥ 0), instead of the verdict's wait. */
      delayMs: number;
    }
  | undefined;

/**
 * A retry rule of the user's (`retry.shouldRetry`): asked after the built-in verdict for every failure
 * of every loop except the SDK's own bounds (deadline, abort, budget, bulkhead, open breaker), which
 * stay final. Deadline, `maxAttempts`, budget and breaker still bound what it allows. Must not throw:
 * a rule that throws, or answers something else, keeps the verdict (and a warning is emitted).
 */
export type RetryRule = (ctx: RetryContext) => RetryRuleAnswer;

/** Asks `rule`; its answer over the verdict (a repeat it asks for makes the failure transient). */
export function askRule(rule: RetryRule, ctx: RetryContext): RetryVerdict {
  let answer: unknown;
  try {
    answer = rule(ctx);
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    platform.warn(`retry.shouldRetry threw (${name}); the built-in verdict stands`, 'A2A_RESILIENT_RETRY_RULE');
    return ctx.verdict;
  }
  const verdict = ctx.verdict;
  if (answer === undefined) return verdict;
  if (answer === false) return { ...verdict, retry: false, reason: `rule:no-retry(${verdict.reason})` };
  if (answer === true) return { ...verdict, retry: true, transient: true, reason: `rule:retry(${verdict.reason})` };
  const delayMs = typeof answer === 'object' && answer !== null ? (answer as { delayMs?: unknown }).delayMs : undefined;
  if (typeof delayMs === 'number' && Number.isFinite(delayMs) && delayMs >= 0) {
    return { ...verdict, retry: true, transient: true, delayMs, reason: `rule:delay(${verdict.reason})` };
  }
  platform.warn('retry.shouldRetry answered neither a boolean, { delayMs: number ≥ 0 } nor undefined; the built-in verdict stands', 'A2A_RESILIENT_RETRY_RULE');
  return verdict;
}
