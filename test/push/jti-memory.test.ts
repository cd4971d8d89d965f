/** The JWT id memory: one delivery per id while its token lives; bounded; expired ids make room. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JtiMemory } from '../../src/push/jti-memory.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('JtiMemory', () => {
  it('same bytes again: ok; other bytes: reused; after the token expired: new again', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const memory = new JtiMemory(10);
    expect(memory.claim('j', 1_060_000, 'd1')).toBe('ok');
    expect(memory.claim('j', 1_060_000, 'd1')).toBe('ok');
    expect(memory.claim('j', 1_060_000, 'd2')).toBe('reused');
    vi.setSystemTime(1_060_001);
    expect(memory.claim('j', 1_120_000, 'd2')).toBe('ok');
  });

  it('full while every id lives (a new one is refused, none forgotten); expired ones make room', () => {
    vi.useFakeTimers({ now: 0 });
    const memory = new JtiMemory(2);
    expect(memory.claim('a', 10_000, 'd')).toBe('ok');
    expect(memory.claim('b', 20_000, 'd')).toBe('ok');
    expect(memory.claim('c', 20_000, 'd')).toBe('full');
    expect(memory.claim('a', 10_000, 'other')).toBe('reused');
    vi.setSystemTime(10_001);
    expect(memory.claim('c', 20_000, 'd')).toBe('ok');
    expect(memory.claim('b', 20_000, 'other')).toBe('reused');
  });

  it('release forgets a claim only for the bytes it was made for', () => {
    const memory = new JtiMemory(5);
    const until = Date.now() + 60_000;
    expect(memory.claim('j', until, 'd1')).toBe('ok');
    memory.release('j', 'd2');
    expect(memory.claim('j', until, 'd2')).toBe('reused');
    memory.release('j', 'd1');
    expect(memory.claim('j', until, 'd2')).toBe('ok');
  });
});
