import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import type { RetryBudget } from './budget.js';
import type { CallScope } from '../transport/call-scope.js';
import type { CallTrace } from './call-trace.js';
import { emitEvent, type EventSink } from './events.js';
import type { ResilienceEvent } from './event-types.js';
import type { RetryPolicy } from './retry-policy.js';

/** Everything the retry loop of one call needs. */
export interface RetryRun<T> {
  agent: string;
  method: string;
  idempotent: boolean;
  /** The call's retry policy: every failure's verdict, its settings (`maxAttempts`, `budget`). */
  policy: RetryPolicy;
  /** The call's scope; disposed when the run ends. */
  scope: CallScope;
  budget: RetryBudget | undefined;
  onEvent: EventSink | undefined;
  /** Runs attempt number `attempt` (1-based) through the breaker. */
  run(attempt: number): Promise<T>;
  /** Called once when the run ends (success or final failure), after the scope is disposed. */
  end?(): void;
  /** The call's span, when traced: retries, waits, refusals and the give-up are recorded on it. */
  trace?: CallTrace | undefined;
  /** The call repeats a failed stream (a resume round): its first attempt is charged to the budget as a retry. */
  resumeRound?: boolean | undefined;
}

/**
 * Runs attempts until one succeeds or the classified failure, `maxAttempts`, the retry budget, the
 * deadline or the caller's signal says stop. Waits are cut by the deadline and the signal; a wait
 * that would outlive the deadline is not started. Disposes `r.scope` and calls `r.end` when done.
 *
 * The first attempt runs without the loop's bookkeeping (closures, the attempts list), which is
 * only set up once it fails: most calls succeed at once.
 * @throws A2AClientError — the last attempt's error, or kind `deadline-exceeded` / `aborted` /
 * `budget-exhausted` with it as `cause`; `attempts` holds every attempt's error. Errors that are not
 * `A2AClientError`s (bugs) are rethrown unchanged.
 */
export function runWithRetry<T>(r: RetryRun<T>): Promise<T> {
  const started = performance.now();
  const budgetOptions = r.policy.options.budget;
  if (budgetOptions !== false && r.budget) {
    if (r.resumeRound !== true) r.budget.recordRequest(budgetOptions.windowMs, started);
    else if (!r.budget.tryRetry(budgetOptions, started)) return Promise.reject(refusedRound(r));
  }
  let first: Promise<T>;
  try {
    first = r.run(1);
  } catch (error) {
    first = Promise.reject(error);
  }
  return first.then(
    (value) => {
      r.scope.dispose();
      r.end?.();
      return value;
    },
    (error: unknown) => retryAfterFailure(r, error, started),
  );
}

/**
 * The error of a resume round the retry budget refused (a stream's repeat counts as a retry): the
 * run ends without an attempt.
 */
function refusedRound<T>(r: RetryRun<T>): A2AClientError {
  r.scope.dispose();
  r.end?.();
  const event: ResilienceEvent = { type: 'budget-exhausted', agent: r.agent, method: r.method, attempt: 0, at: Date.now() };
  emitEvent(r.onEvent, event);
  r.trace?.event(event);
  return new A2AClientError({ kind: 'budget-exhausted', message: "The agent's retry budget is spent; not resuming the stream", agent: r.agent, method: r.method, retryable: true });
}

/** The retry loop from the failure `firstError` of attempt 1 on; disposes the scope and ends the run when it ends. */
async function retryAfterFailure<T>(r: RetryRun<T>, firstError: unknown, started: number): Promise<T> {
  try {
    return await retryLoop(r, firstError, started);
  } finally {
    r.scope.dispose();
    r.end?.();
  }
}

async function retryLoop<T>(r: RetryRun<T>, firstError: unknown, started: number): Promise<T> {
  const attempts: A2AClientError[] = [];
  const policy = r.policy;
  const options = policy.options;
  /**
   * The call's final error: `retryable` says whether a later repeat may succeed (the policy's
   * `transient` for that error, or `transient` when it was judged already), `ambiguous` whether any
   * attempt may have run at the agent.
   */
  const finish = (error: A2AClientError, reason: string, retryAfterMs?: number, transient?: boolean): A2AClientError => {
    const ambiguous = attempts.some((a) => policy.ambiguous(a, r.method, r.idempotent)) || (!attempts.includes(error) && policy.ambiguous(error, r.method, r.idempotent));
    const final = error.with({
      agent: r.agent,
      method: r.method,
      retryable: transient ?? policy.transient(error, r.method, r.idempotent),
      ambiguous: ambiguous || undefined,
      attempts: [...attempts],
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
    const event: ResilienceEvent = {
      type: 'give-up',
      agent: r.agent,
      method: r.method,
      attempts: attempts.length,
      reason,
      error: final,
      elapsedMs: performance.now() - started,
      at: Date.now(),
    };
    emitEvent(r.onEvent, event);
    r.trace?.event(event);
    return final;
  };
  const wrapped = (kind: 'deadline-exceeded' | 'aborted' | 'budget-exhausted', message: string, cause: unknown): A2AClientError =>
    new A2AClientError({ kind, message, cause });

  /**
   * The final error when the caller's signal or the deadline stopped the call; `cut`: the error of
   * the request it cut short (its `phase` becomes the call's: whether that attempt reached the agent).
   */
  const stopped = (reason: A2AClientError, last: A2AClientError | undefined, cut?: A2AClientError): A2AClientError => {
    const kind = reason.kind === 'aborted' ? 'aborted' : 'deadline-exceeded';
    const error = new A2AClientError({ kind, message: reason.message, cause: kind === 'aborted' ? reason.cause : last, ...(cut?.phase ? { phase: cut.phase } : {}) });
    return finish(error, kind);
  };

  let raw = firstError;
  for (let attempt = 1; ; attempt++) {
    if (!isA2AClientError(raw)) throw raw;
    const error: A2AClientError = raw;
    const reason = r.scope.failure;
    if (reason) {
      // An attempt cut by the scope itself rejects with the reason: its request's own error (how far
      // it got) is kept as the attempt's, when a request was under way.
      const cut = error === reason ? r.scope.requestFailure?.with({ method: r.method }) : undefined;
      if (error !== reason) attempts.push(error);
      else if (cut) attempts.push(cut);
      throw stopped(reason, attempts.at(-1), cut);
    }
    attempts.push(error);
    if (error.kind === 'circuit-open') r.trace?.circuitOpen(error.retryAfterMs ?? 0);
    const c = policy.attemptFailed(error, { method: r.method, idempotent: r.idempotent, attempt });
    if (!c.retry) throw finish(error, c.reason, c.serverDelayMs, c.transient);
    if (attempt >= options.maxAttempts) throw finish(error, `max-attempts(${c.reason})`, c.serverDelayMs, c.transient);
    const delayMs = c.delayMs;
    if (delayMs >= r.scope.timeLeft()) {
      // The server's own delay is reported (not the clamped one): the caller can schedule by it.
      if (c.serverDelayMs !== undefined) throw finish(error, `hint-exceeds-deadline(${c.reason})`, c.serverDelayMs, c.transient);
      throw finish(wrapped('deadline-exceeded', 'The call deadline leaves no time for another attempt', error), 'deadline');
    }
    if (r.budget && options.budget !== false && !r.budget.tryRetry(options.budget)) {
      const event: ResilienceEvent = { type: 'budget-exhausted', agent: r.agent, method: r.method, attempt, at: Date.now() };
      emitEvent(r.onEvent, event);
      r.trace?.event(event);
      const spent = wrapped('budget-exhausted', `The agent's retry budget is spent; not retrying: ${error.message}`, error);
      throw finish(spent, `budget-exhausted(${c.reason})`, c.serverDelayMs);
    }
    const event: ResilienceEvent = { type: 'retry', agent: r.agent, method: r.method, attempt, delayMs, reason: c.reason, error, at: Date.now() };
    emitEvent(r.onEvent, event);
    r.trace?.event(event);
    try {
      await r.scope.sleep(delayMs);
    } catch {
      throw stopped(r.scope.failure ?? wrapped('aborted', 'The call was aborted', error), error);
    }
    try {
      return await r.run(attempt + 1);
    } catch (next) {
      raw = next;
    }
  }
}

