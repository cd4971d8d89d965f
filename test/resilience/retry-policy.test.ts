/**
 * The client's retry policy: the one answer to "try again?" every loop asks — its verdicts on a call's
 * failed attempt and on a stream's or a wait's failed round, the poll schedule, which failures send a
 * stream to polling, and where the user's rule is asked and where it is not.
 */
import { describe, expect, it } from 'vitest';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import { resolveRetry } from '../../src/resilience/defaults.js';
import { MIN_LOOKUP_DELAY_MS, MIN_ROUND_MS, retryPolicy } from '../../src/resilience/retry-policy.js';
import type { RetryContext } from '../../src/resilience/retry-rule.js';

const internal = (): A2AClientError => new A2AClientError({ kind: 'json-rpc', code: -32603, message: 'Internal error' });
const reset = (): A2AClientError => new A2AClientError({ kind: 'connection', reason: 'reset', phase: 'after-send', message: 'reset' });

describe('RetryPolicy', () => {
  it('a bare −32603 on a send is not repeated (ambiguous, transient); on a read it is, after the backoff', () => {
    const policy = retryPolicy(resolveRetry({ baseDelayMs: 100, maxDelayMs: 100 }));
    const send = policy.attemptFailed(internal(), { method: 'sendMessage', idempotent: false, attempt: 1 });
    expect(send).toMatchObject({ retry: false, transient: true, ambiguous: true, countsAsFailure: true });
    const read = policy.attemptFailed(internal(), { method: 'getTask', idempotent: true, attempt: 1 });
    expect(read).toMatchObject({ retry: true, ambiguous: false });
    expect(read.delayMs).toBeGreaterThanOrEqual(0);
    expect(read.delayMs).toBeLessThanOrEqual(100);
  });

  it('a round after a drop goes on without a delay of its own even when no time is left: the loop meets the deadline, not the drop', () => {
    const policy = retryPolicy(resolveRetry({}));
    expect(policy.roundFailed(reset(), { method: 'subscribeToTask', next: 'resubscribe', attempt: 3, timeLeft: 0 }).retry).toBe(true);
    const asked = new A2AClientError({ kind: 'http', status: 503, retryAfterMs: 5_000, message: 'busy' });
    expect(policy.roundFailed(asked, { method: 'getTask', next: 'poll', attempt: 1, timeLeft: 4_000 }).retry).toBe(false);
    expect(policy.roundFailed(asked, { method: 'getTask', next: 'poll', attempt: 1, timeLeft: 6_000 })).toMatchObject({ retry: true, delayMs: 5_000 });
  });

  it('an open breaker is waited out when it half-opens in time; the budget, the bulkhead, the deadline and the caller end a round', () => {
    const policy = retryPolicy(resolveRetry({}));
    const open = new A2AClientError({ kind: 'circuit-open', retryAfterMs: 300, message: 'open' });
    expect(policy.roundFailed(open, { method: 'subscribeToTask', next: 'resubscribe', attempt: 1, timeLeft: 1_000 })).toMatchObject({ retry: true });
    expect(policy.roundFailed(open, { method: 'subscribeToTask', next: 'resubscribe', attempt: 1, timeLeft: 1_000 }).delayMs).toBeGreaterThanOrEqual(300);
    expect(policy.roundFailed(open, { method: 'subscribeToTask', next: 'resubscribe', attempt: 1, timeLeft: 200 }).retry).toBe(false);
    for (const kind of ['budget-exhausted', 'bulkhead-rejected', 'deadline-exceeded', 'aborted'] as const) {
      expect(policy.roundFailed(new A2AClientError({ kind, message: kind }), { method: 'getTask', next: 'poll', attempt: 1, timeLeft: 10_000 }).retry).toBe(false);
    }
  });

  it('the user rule is asked with the verdict, and never about the SDK’s own bounds', () => {
    const asked: RetryContext[] = [];
    const policy = retryPolicy(
      resolveRetry({
        shouldRetry: (ctx) => {
          asked.push(ctx);
          return true;
        },
      }),
    );
    expect(policy.attemptFailed(internal(), { method: 'sendMessage', idempotent: false, attempt: 2 })).toMatchObject({ retry: true, transient: true, reason: 'rule:retry(code:-32603:ambiguous-send(may have reached the agent; opt in with retry.ambiguous))' });
    expect(asked[0]).toMatchObject({ method: 'sendMessage', attempt: 2, sent: true, verdict: { retry: false, ambiguous: true } });
    const spent = new A2AClientError({ kind: 'budget-exhausted', message: 'spent' });
    expect(policy.roundFailed(spent, { method: 'getTask', next: 'poll', attempt: 1, timeLeft: 10_000 }).retry).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('polls wait 25 ms, doubling while nothing changes, up to 2 s (or retry.maxDelayMs when shorter)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 40].map((q) => retryPolicy(resolveRetry({})).pollDelay(q))).toEqual([25, 50, 100, 200, 400, 800, 1600, 2000, 2000, 2000]);
    expect(retryPolicy(resolveRetry({ maxDelayMs: 300 })).pollDelay(5)).toBe(300);
    expect(retryPolicy(resolveRetry({ maxDelayMs: 1 })).pollDelay(5)).toBe(MIN_ROUND_MS);
  });

  it('a subscription that cannot follow the task sends the stream to polling; other failures do not', () => {
    const policy = retryPolicy(resolveRetry({}));
    const yes = [
      new A2AClientError({ kind: 'unsupported', message: 'x' }),
      new A2AClientError({ kind: 'json-rpc', code: -32001, message: 'x' }),
      new A2AClientError({ kind: 'json-rpc', code: -32004, message: 'x' }),
      new A2AClientError({ kind: 'json-rpc', code: -32601, message: 'x' }),
      new A2AClientError({ kind: 'http', status: 404, message: 'x' }),
      new A2AClientError({ kind: 'http', status: 400, a2aName: 'UnsupportedOperation', message: 'x' }),
    ];
    for (const error of yes) expect(policy.followsByPolling(error), error.message + String(error.code ?? error.status)).toBe(true);
    for (const error of [internal(), reset(), new A2AClientError({ kind: 'http', status: 503, message: 'x' })]) expect(policy.followsByPolling(error)).toBe(false);
  });

  it('looks up a send whose final error is ambiguous, unless turned off; never a read, never at the SDK\'s own bounds', () => {
    const ambiguous = reset().with({ ambiguous: true });
    const on = retryPolicy(resolveRetry({}));
    expect(on.looksUp(ambiguous, 'sendMessage')).toBe(true);
    expect(on.looksUp(ambiguous, 'sendStreamingMessage')).toBe(true);
    expect(on.looksUp(ambiguous, 'getTask')).toBe(false);
    expect(on.looksUp(reset(), 'sendMessage')).toBe(false);
    for (const kind of ['deadline-exceeded', 'aborted', 'budget-exhausted', 'circuit-open', 'bulkhead-rejected'] as const) {
      expect(on.looksUp(new A2AClientError({ kind, message: kind, ambiguous: true }), 'sendMessage')).toBe(false);
    }
    expect(retryPolicy(resolveRetry({ lookUpSends: false })).looksUp(ambiguous, 'sendMessage')).toBe(false);
    expect(retryPolicy(resolveRetry(false)).looksUp(ambiguous, 'sendMessage')).toBe(false);
    expect(retryPolicy(resolveRetry({ lookUpSends: false }, {})).options.lookUpSends).toBe(false);
  });

  it('waits at least MIN_LOOKUP_DELAY_MS before a lookup, and at most the backoff of the failed attempt', () => {
    const policy = retryPolicy(resolveRetry({ baseDelayMs: 1, maxDelayMs: 1 }));
    expect(policy.lookupDelay(1)).toBe(MIN_LOOKUP_DELAY_MS);
    const slow = retryPolicy(resolveRetry({ baseDelayMs: 400, maxDelayMs: 400 }));
    for (let i = 0; i < 20; i++) {
      const ms = slow.lookupDelay(2);
      expect(ms).toBeGreaterThanOrEqual(MIN_LOOKUP_DELAY_MS);
      expect(ms).toBeLessThanOrEqual(400);
    }
  });

  it('a send proven absent is repeated at once (sent: false), unless the user\'s rule says no', () => {
    const seen: RetryContext[] = [];
    const policy = retryPolicy(resolveRetry({ shouldRetry: (ctx) => (seen.push(ctx), ctx.method === 'sendMessage' ? false : undefined) }));
    expect(retryPolicy(resolveRetry({})).sendAbsent(reset(), { method: 'sendStreamingMessage', attempt: 1 })).toMatchObject({ retry: true, delayMs: 0, ambiguous: false, reason: 'lookup:absent' });
    expect(policy.sendAbsent(reset(), { method: 'sendMessage', attempt: 2 }).retry).toBe(false);
    expect(seen[0]).toMatchObject({ method: 'sendMessage', attempt: 2, sent: false, verdict: { retry: true, reason: 'lookup:absent' } });
  });

  it('a gRPC FAILED_PRECONDITION (UnsupportedOperation for a terminal task) sends a stream to polling', () => {
    const policy = retryPolicy(resolveRetry({}));
    const refused = new A2AClientError({ kind: 'http', status: 400, grpcCode: 9, grpcStatus: 'FAILED_PRECONDITION', message: 'terminal' });
    expect(policy.followsByPolling(refused)).toBe(true);
  });
});
