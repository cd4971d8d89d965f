import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2AClientError, isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { CallScope } from '../../src/transport/call-scope.js';
import { pendingDeadlines } from '../../src/transport/timer-heap.js';
import { activeTimers, failure, settle } from './harness.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

afterEach(() => {
  vi.useRealTimers();
});

describe('CallScope: a call\'s deadline and the caller\'s signal', () => {
  it('fires at the deadline with kind deadline-exceeded, also on a signal first read afterwards', () => {
    vi.useFakeTimers();
    const started = performance.now();
    const early = new CallScope({ deadline: started + 40 });
    const late = new CallScope({ deadline: started + 40 });
    let firedAt = -1;
    early.signal.addEventListener('abort', () => (firedAt = performance.now() - started));
    vi.advanceTimersByTime(39);
    expect(early.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(firedAt).toBe(40);
    expect(late.aborted).toBe(true);
    expect(late.signal.aborted).toBe(true);
    expect(isA2AClientError(late.signal.reason) && late.signal.reason.kind).toBe('deadline-exceeded');
    expect(late.failure).toBe(late.signal.reason);
  });

  it('fires many deadlines in order, each no earlier than its own, and never a disposed one', () => {
    vi.useFakeTimers();
    const start = performance.now();
    const before = pendingDeadlines();
    const fired: Array<{ at: number; deadline: number }> = [];
    const scopes = Array.from({ length: 40 }, (_, i) => {
      const deadline = start + 10 + ((i * 37) % 120);
      const scope = new CallScope({ deadline });
      scope.signal.addEventListener('abort', () => fired.push({ at: performance.now(), deadline }));
      return scope;
    });
    scopes.forEach((scope, i) => i % 3 === 0 && scope.dispose());
    expect(pendingDeadlines()).toBe(before + 40 - 14);
    for (let t = 0; t < 140; t++) {
      vi.advanceTimersByTime(1);
      // Each deadline fires in the very millisecond it is due.
      expect(fired.filter((f) => f.at < f.deadline || f.at >= f.deadline + 1)).toEqual([]);
    }
    expect(fired).toHaveLength(40 - 14);
    expect(fired.map((f) => f.deadline)).toEqual([...fired.map((f) => f.deadline)].sort((a, b) => a - b));
    scopes.forEach((scope, i) => expect(scope.signal.aborted).toBe(i % 3 !== 0));
    expect(pendingDeadlines()).toBe(before);
  });

  it('an overdue deadline still fires when a later one is scheduled before the event loop gets to it', async () => {
    const first = new CallScope({ deadline: performance.now() + 10 });
    const busyUntil = performance.now() + 25;
    while (performance.now() < busyUntil) {
      // The event loop is blocked past the first deadline.
    }
    const second = new CallScope({ deadline: performance.now() + 5000 });
    await wait(20);
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
    second.dispose();
  });

  it('keeps the process alive only while a deadline is pending', () => {
    const idle = refTimers();
    const a = new CallScope({ deadline: performance.now() + 60_000 });
    const b = new CallScope({ deadline: performance.now() + 30_000 });
    expect(refTimers()).toBe(idle + 1);
    a.dispose();
    expect(refTimers()).toBe(idle + 1);
    b.dispose();
    expect(refTimers()).toBe(idle);
    const c = new CallScope({ deadline: performance.now() + 90_000 });
    expect(refTimers()).toBe(idle + 1);
    c.dispose();
    expect(refTimers()).toBe(idle);
  });

  it('a deadline beyond setTimeout’s range does not fire at once', async () => {
    const scope = new CallScope({ deadline: performance.now() + 2 ** 31 + 10_000 });
    await wait(20);
    expect(scope.signal.aborted).toBe(false);
    expect(scope.timeLeft()).toBeGreaterThan(2 ** 31);
    scope.dispose();
  });

  it('works under fake timers, and again with real ones after them', async () => {
    vi.useFakeTimers();
    const faked = new CallScope({ deadline: performance.now() + 1000 });
    vi.advanceTimersByTime(999);
    expect(faked.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(faked.signal.aborted).toBe(true);
    const pending = new CallScope({ deadline: performance.now() + 5000 });
    vi.useRealTimers();
    pending.dispose();

    const real = new CallScope({ deadline: performance.now() + 30 });
    await wait(80);
    expect(real.signal.aborted).toBe(true);
  });

  it('takes the caller’s abort: a typed reason as is, any other as the cause of aborted; not after dispose', () => {
    const typed = new A2AClientError({ kind: 'deadline-exceeded', message: 'outer deadline' });
    const outer = new AbortController();
    const before = pendingDeadlines();
    const scope = new CallScope({ deadline: performance.now() + 10_000, signal: outer.signal });
    outer.abort(typed);
    expect(scope.signal.reason).toBe(typed);
    expect(pendingDeadlines()).toBe(before);

    const caller = new AbortController();
    const other = new CallScope({ deadline: performance.now() + 10_000, signal: caller.signal });
    const reason = new Error('user');
    caller.abort(reason);
    expect(other.signal.reason).toMatchObject({ kind: 'aborted', cause: reason });

    const later = new AbortController();
    const disposed = new CallScope({ deadline: performance.now() + 10_000, signal: later.signal });
    disposed.dispose();
    later.abort(new Error('too late'));
    expect(disposed.signal.aborted).toBe(false);
  });

  it('race: cuts a hung promise at the deadline; inspect sees the reason once, a late failure is dropped', async () => {
    vi.useFakeTimers();
    const scope = new CallScope({ deadline: performance.now() + 30 });
    const seen: unknown[] = [];
    let failLate: (error: Error) => void = () => undefined;
    const hung = new Promise<string>((_resolve, reject) => (failLate = reject));
    const outcome = scope.race(hung, (error) => seen.push(error));
    const cut = expect(outcome).rejects.toMatchObject({ kind: 'deadline-exceeded' });
    await vi.advanceTimersByTimeAsync(30);
    await cut;
    failLate(new Error('late'));
    await vi.advanceTimersByTimeAsync(5);
    expect(seen).toEqual([scope.failure]);
  });

  it('sleep: waits its time, or rejects with the failure as soon as the scope fails, leaving no timer', async () => {
    vi.useFakeTimers();
    const scope = new CallScope({ deadline: performance.now() + 1_000 });
    let slept = false;
    const nap = scope.sleep(300).then(() => (slept = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await nap;
    expect(slept).toBe(true);
    const cut = scope.sleep(5_000);
    const outcome = expect(cut).rejects.toMatchObject({ kind: 'deadline-exceeded' });
    await vi.advanceTimersByTimeAsync(700);
    await outcome;
    expect(vi.getTimerCount()).toBeLessThanOrEqual(1); // at most the process-wide heap timer, unref'd
    const caller = new AbortController();
    const aborted = new CallScope({ signal: caller.signal });
    const stopped = aborted.sleep(10_000);
    caller.abort(new Error('user'));
    await expect(stopped).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('race: settles with the promise while the scope has not fired', async () => {
    const scope = new CallScope({ deadline: performance.now() + 10_000 });
    const seen: unknown[] = [];
    await expect(scope.race(Promise.resolve('ok'), (error) => seen.push(error))).resolves.toBe('ok');
    const failure = new Error('attempt failed');
    await expect(scope.race(Promise.reject(failure), (error) => seen.push(error))).rejects.toBe(failure);
    expect(seen).toEqual([failure]);
    scope.dispose();
  });
});

const never = () => new Promise<never>(() => undefined);

describe('CallScope over one request: phase timers', () => {
  it.each([50, 150])('fires a %i ms phase timer within max(25 ms, 5 %%) and aborts its signal', async (ms) => {
    const scope = new CallScope({ request: true });
    // Timed from just before arming (a loaded machine may pause between arming and the race).
    const armedAt = performance.now();
    scope.arm('read-timeout', ms);
    const { error } = await failure(() => scope.race(never()));
    const took = performance.now() - armedAt;
    expect(error.kind).toBe('read-timeout');
    expect(scope.signal.aborted).toBe(true);
    expect(scope.signal.reason).toBe(error);
    expect(took).toBeGreaterThanOrEqual(ms - 2);
    expect(took).toBeLessThan(ms + Math.max(25, ms * 0.05) + 100); // + slack for a busy CI
    scope.dispose();
  });

  it('re-arming replaces the phase timer', () => {
    vi.useFakeTimers();
    const scope = new CallScope({ request: true });
    scope.arm('connect-timeout', 30);
    scope.arm('idle-timeout', 80);
    vi.advanceTimersByTime(79);
    expect(scope.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(scope.failure).toMatchObject({ kind: 'idle-timeout', phase: 'after-send' });
    scope.dispose();
  });

  it('turns the caller abort into kind aborted with the reason as cause, and removes its listener', async () => {
    const ac = new AbortController();
    const scope = new CallScope({ request: true, signal: ac.signal });
    const pending = scope.race(never());
    ac.abort('why');
    const { error } = await failure(() => pending);
    expect(error).toMatchObject({ kind: 'aborted', cause: 'why', phase: 'before-send' });
  });

  it('leaves no timers behind after dispose', async () => {
    await settle();
    const before = activeTimers();
    const scope = new CallScope({ request: true, deadline: performance.now() + 10_000 });
    scope.arm('read-timeout', 10_000);
    expect(activeTimers()).toBeGreaterThan(before);
    scope.dispose();
    expect(activeTimers()).toBe(before);
    await expect(scope.race(Promise.resolve(1))).resolves.toBe(1);
  });

  it('reports deadline-exceeded with the phase it reached', () => {
    vi.useFakeTimers();
    const unsent = new CallScope({ request: true, deadline: performance.now() + 40 });
    const sent = new CallScope({ request: true, deadline: performance.now() + 40 });
    sent.sent = true;
    vi.advanceTimersByTime(40);
    expect(unsent.failure).toMatchObject({ kind: 'deadline-exceeded', phase: 'before-send', message: 'Timed out after 40 ms (the call deadline)' });
    expect(sent.failure).toMatchObject({ kind: 'deadline-exceeded', phase: 'after-send' });
  });

  it('touch() restarts the phase timer without firing early', () => {
    vi.useFakeTimers();
    const scope = new CallScope({ request: true });
    scope.arm('idle-timeout', 80);
    // Touched every 20 ms for 200 ms: never idle for 80 ms.
    for (let t = 0; t < 200; t += 20) {
      vi.advanceTimersByTime(20);
      scope.touch();
    }
    vi.advanceTimersByTime(79);
    expect(scope.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(scope.failure?.kind).toBe('idle-timeout');
    scope.dispose();
  });

  it('keeps one Node timer for the phase and the deadline', async () => {
    await settle();
    const before = activeTimers();
    const scope = new CallScope({ request: true, deadline: performance.now() + 10_000 });
    scope.arm('connect-timeout', 5_000);
    scope.arm('read-timeout', 60_000);
    for (let i = 0; i < 100; i++) scope.touch();
    expect(activeTimers() - before).toBe(1);
    scope.dispose();
    expect(activeTimers()).toBe(before);
  });

  it('tells onFail once, and creates its signal only when asked', () => {
    vi.useFakeTimers();
    const failures: string[] = [];
    const scope = new CallScope({ request: true, onFail: (e) => failures.push(e.kind) });
    scope.arm('read-timeout', 30);
    vi.advanceTimersByTime(30);
    scope.fail(new A2AClientError({ kind: 'connection', message: 'after the timeout' }));
    expect(failures).toEqual(['read-timeout']);
    // Asked for after the failure, the signal is already aborted with it.
    expect(scope.signal.aborted).toBe(true);
    expect(scope.signal.reason).toBe(scope.failure);
    scope.dispose();
  });
});

describe('CallScope inside a call’s scope (a request under the pipeline)', () => {
  it('takes the parent’s deadline without a timer of its own, and fails with it, saying how far the request got', async () => {
    vi.useFakeTimers();
    const call = new CallScope({ deadline: performance.now() + 60 });
    const before = pendingDeadlines();
    const request = new CallScope({ parent: call, request: true });
    expect(pendingDeadlines()).toBe(before);
    expect(request.deadline).toBe(call.deadline);
    request.sent = true;
    const cut = failure(() => request.race(never()));
    vi.advanceTimersByTime(60);
    const { error } = await cut;
    expect(error).toMatchObject({ kind: 'deadline-exceeded', phase: 'after-send' });
    expect(call.failure).toMatchObject({ kind: 'deadline-exceeded' });
    expect(call.failure?.phase).toBeUndefined();
    // The call keeps the request it cut, for the attempt it was: sent or not.
    expect(call.requestFailure).toBe(request.failure);
  });

  it('keeps the cut request’s error through a scope in between (a stream’s scope over the pipeline’s)', () => {
    const stream = new CallScope({ deadline: performance.now() + 10_000 });
    const pipeline = new CallScope({ parent: stream });
    const request = new CallScope({ parent: pipeline, request: true });
    stream.fail(new A2AClientError({ kind: 'deadline-exceeded', message: 'late' }));
    expect(request.failure).toMatchObject({ kind: 'deadline-exceeded', phase: 'before-send' });
    expect(pipeline.requestFailure).toBe(request.failure);
    expect(stream.requestFailure).toBe(request.failure);
    expect(new CallScope({ deadline: performance.now() + 10 }).requestFailure).toBeUndefined();
  });

  it('turns the call’s abort into the request’s aborted (cause: the call’s error), and fails at once under a failed call', () => {
    const caller = new AbortController();
    const call = new CallScope({ deadline: performance.now() + 10_000, signal: caller.signal });
    const failures: string[] = [];
    const request = new CallScope({ parent: call, request: true, onFail: (e) => failures.push(e.kind) });
    const reason = new Error('user left');
    caller.abort(reason);
    expect(failures).toEqual(['aborted']);
    expect(request.failure).toMatchObject({ kind: 'aborted', phase: 'before-send', cause: reason });
    expect(call.failure?.cause).toBe(reason);
    const late = new CallScope({ parent: call, request: true });
    expect(late.failure).toMatchObject({ kind: 'aborted' });
  });

  it('a disposed request no longer hears the call; a failing request leaves the call running', () => {
    vi.useFakeTimers();
    const call = new CallScope({ deadline: performance.now() + 40 });
    const done = new CallScope({ parent: call, request: true });
    done.dispose();
    const timedOut = new CallScope({ parent: call, request: true });
    timedOut.arm('read-timeout', 10);
    vi.advanceTimersByTime(10);
    expect(timedOut.failure?.kind).toBe('read-timeout');
    expect(call.aborted).toBe(false);
    vi.advanceTimersByTime(30);
    expect(call.failure?.kind).toBe('deadline-exceeded');
    expect(done.aborted).toBe(false);
  });
});
