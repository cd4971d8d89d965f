import { describe, expect, it } from 'vitest';
import { Watchdog } from '../../src/transport/watchdog.js';
import { activeTimers, failure, settle } from './harness.js';

const never = () => new Promise<never>(() => undefined);

describe('Watchdog', () => {
  it.each([50, 150])('fires a %i ms phase timer within max(25 ms, 5 %%) and aborts its signal', async (ms) => {
    const dog = new Watchdog({});
    dog.arm('read-timeout', ms);
    const { error, ms: took } = await failure(() => dog.race(never()));
    expect(error.kind).toBe('read-timeout');
    expect(dog.signal.aborted).toBe(true);
    expect(dog.signal.reason).toBe(error);
    expect(took).toBeGreaterThanOrEqual(ms - 2);
    expect(took).toBeLessThan(ms + Math.max(25, ms * 0.05) + 100); // + slack for a busy CI
    dog.dispose();
  });

  it('re-arming replaces the phase timer', async () => {
    const dog = new Watchdog({});
    dog.arm('connect-timeout', 30);
    dog.arm('idle-timeout', 80);
    const { error, ms } = await failure(() => dog.race(never()));
    expect(error.kind).toBe('idle-timeout');
    expect(ms).toBeGreaterThanOrEqual(75);
    dog.dispose();
  });

  it('turns the caller abort into kind aborted with the reason as cause, and removes its listener', async () => {
    const ac = new AbortController();
    const dog = new Watchdog({ signal: ac.signal });
    const pending = dog.race(never());
    ac.abort('why');
    const { error } = await failure(() => pending);
    expect(error).toMatchObject({ kind: 'aborted', cause: 'why', phase: 'before-send' });
  });

  it('leaves no timers behind after dispose', async () => {
    await settle();
    const before = activeTimers();
    const dog = new Watchdog({ deadline: performance.now() + 10_000 });
    dog.arm('read-timeout', 10_000);
    expect(activeTimers()).toBeGreaterThan(before);
    dog.dispose();
    expect(activeTimers()).toBe(before);
    await expect(dog.race(Promise.resolve(1))).resolves.toBe(1);
  });

  it('reports deadline-exceeded with the phase it reached', async () => {
    const dog = new Watchdog({ deadline: performance.now() + 40 });
    dog.sent = true;
    const { error } = await failure(() => dog.race(never()));
    expect(error).toMatchObject({ kind: 'deadline-exceeded', phase: 'after-send' });
    dog.dispose();
  });

  it('touch() restarts the phase timer without firing early', async () => {
    const dog = new Watchdog({});
    dog.arm('idle-timeout', 80);
    const started = performance.now();
    const toucher = setInterval(() => dog.touch(), 20);
    setTimeout(() => clearInterval(toucher), 200);
    const { error } = await failure(() => dog.race(never()));
    expect(error.kind).toBe('idle-timeout');
    // Touched until ~200 ms, then 80 ms of silence.
    expect(performance.now() - started).toBeGreaterThanOrEqual(255);
    dog.dispose();
  });

  it('keeps one Node timer for the phase and the deadline', async () => {
    await settle();
    const before = activeTimers();
    const dog = new Watchdog({ deadline: performance.now() + 10_000 });
    dog.arm('connect-timeout', 5_000);
    dog.arm('read-timeout', 60_000);
    for (let i = 0; i < 100; i++) dog.touch();
    expect(activeTimers() - before).toBe(1);
    dog.dispose();
    expect(activeTimers()).toBe(before);
  });

  it('tells onFail once, and creates its signal only when asked', async () => {
    const failures: string[] = [];
    const dog = new Watchdog({ onFail: (e) => failures.push(e.kind) });
    dog.arm('read-timeout', 30);
    await failure(() => dog.race(never()));
    expect(failures).toEqual(['read-timeout']);
    // Asked for after the failure, the signal is already aborted with it.
    expect(dog.signal.aborted).toBe(true);
    expect(dog.signal.reason).toBe(dog.failure);
    dog.dispose();
  });
});
