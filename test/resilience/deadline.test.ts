import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2AClientError, isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { DeadlineScope, openScope } from '../../src/resilience/deadline.js';
import { pendingDeadlines } from '../../src/resilience/deadline-timer.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

afterEach(() => {
  vi.useRealTimers();
});

describe('deadline scope', () => {
  it('fires at the deadline with kind deadline-exceeded, also on a signal first read afterwards', async () => {
    const started = performance.now();
    const early = new DeadlineScope(started + 40);
    const late = new DeadlineScope(started + 40);
    let firedAt = -1;
    early.signal.addEventListener('abort', () => (firedAt = performance.now() - started));
    await wait(80);
    expect(firedAt).toBeGreaterThanOrEqual(39);
    expect(firedAt).toBeLessThan(150);
    expect(late.aborted).toBe(true);
    expect(late.signal.aborted).toBe(true);
    expect(isA2AClientError(late.signal.reason) && late.signal.reason.kind).toBe('deadline-exceeded');
    expect(late.reason).toBe(late.signal.reason);
  });

  it('fires many deadlines in order, each no earlier than its own, and never a disposed one', async () => {
    const start = performance.now();
    const before = pendingDeadlines();
    const fired: Array<{ at: number; deadline: number }> = [];
    const scopes = Array.from({ length: 40 }, (_, i) => {
      const deadline = start + 10 + ((i * 37) % 120);
      const scope = openScope(deadline);
      scope.signal.addEventListener('abort', () => fired.push({ at: performance.now(), deadline }));
      return scope;
    });
    scopes.forEach((scope, i) => i % 3 === 0 && scope.dispose());
    expect(pendingDeadlines()).toBe(before + 40 - 14);
    await wait(200);
    expect(fired).toHaveLength(40 - 14);
    for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.deadline - 1);
    expect(fired.map((f) => f.deadline)).toEqual([...fired.map((f) => f.deadline)].sort((a, b) => a - b));
    scopes.forEach((scope, i) => expect(scope.signal.aborted).toBe(i % 3 !== 0));
    expect(pendingDeadlines()).toBe(before);
  });

  it('an overdue deadline still fires when a later one is scheduled before the event loop gets to it', async () => {
    const first = openScope(performance.now() + 10);
    const busyUntil = performance.now() + 25;
    while (performance.now() < busyUntil) {
      // The event loop is blocked past the first deadline.
    }
    const second = openScope(performance.now() + 5000);
    await wait(20);
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
    second.dispose();
  });

  it('keeps the process alive only while a deadline is pending', () => {
    const idle = refTimers();
    const a = openScope(performance.now() + 60_000);
    const b = openScope(performance.now() + 30_000);
    expect(refTimers()).toBe(idle + 1);
    a.dispose();
    expect(refTimers()).toBe(idle + 1);
    b.dispose();
    expect(refTimers()).toBe(idle);
    const c = openScope(performance.now() + 90_000);
    expect(refTimers()).toBe(idle + 1);
    c.dispose();
    expect(refTimers()).toBe(idle);
  });

  it('a deadline beyond setTimeout’s range does not fire at once', async () => {
    const scope = openScope(performance.now() + 2 ** 31 + 10_000);
    await wait(20);
    expect(scope.signal.aborted).toBe(false);
    expect(scope.timeLeft()).toBeGreaterThan(2 ** 31);
    scope.dispose();
  });

  it('works under fake timers, and again with real ones after them', async () => {
    vi.useFakeTimers();
    const faked = openScope(performance.now() + 1000);
    vi.advanceTimersByTime(999);
    expect(faked.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(faked.signal.aborted).toBe(true);
    const pending = openScope(performance.now() + 5000);
    vi.useRealTimers();
    pending.dispose();

    const real = openScope(performance.now() + 30);
    await wait(80);
    expect(real.signal.aborted).toBe(true);
  });

  it('takes the caller’s abort: a typed reason as is, any other as the cause of aborted; not after dispose', () => {
    const typed = new A2AClientError({ kind: 'deadline-exceeded', message: 'outer deadline' });
    const outer = new AbortController();
    const before = pendingDeadlines();
    const scope = openScope(performance.now() + 10_000, outer.signal);
    outer.abort(typed);
    expect(scope.signal.reason).toBe(typed);
    expect(pendingDeadlines()).toBe(before);

    const caller = new AbortController();
    const other = openScope(performance.now() + 10_000, caller.signal);
    const reason = new Error('user');
    caller.abort(reason);
    expect(other.signal.reason).toMatchObject({ kind: 'aborted', cause: reason });

    const later = new AbortController();
    const disposed = openScope(performance.now() + 10_000, later.signal);
    disposed.dispose();
    later.abort(new Error('too late'));
    expect(disposed.signal.aborted).toBe(false);
  });

  it('race: cuts a hung promise at the deadline; inspect sees the reason once, a late failure is dropped', async () => {
    const scope = new DeadlineScope(performance.now() + 30);
    const seen: unknown[] = [];
    let failLate: (error: Error) => void = () => undefined;
    const hung = new Promise<string>((_resolve, reject) => (failLate = reject));
    const outcome = scope.race(hung, (error) => seen.push(error));
    await expect(outcome).rejects.toMatchObject({ kind: 'deadline-exceeded' });
    failLate(new Error('late'));
    await wait(5);
    expect(seen).toEqual([scope.reason]);
  });

  it('race: settles with the promise while the scope has not fired', async () => {
    const scope = new DeadlineScope(performance.now() + 10_000);
    const seen: unknown[] = [];
    await expect(scope.race(Promise.resolve('ok'), (error) => seen.push(error))).resolves.toBe('ok');
    const failure = new Error('attempt failed');
    await expect(scope.race(Promise.reject(failure), (error) => seen.push(error))).rejects.toBe(failure);
    expect(seen).toEqual([failure]);
    scope.dispose();
  });
});
