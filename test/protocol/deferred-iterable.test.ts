import { describe, expect, it } from 'vitest';
import { deferredIterable } from '../../src/protocol/deferred-iterable.js';
import { batchSource as source } from '../client/harness.js';

describe('deferredIterable', () => {
  it('makes its source on the first read only, then reads it directly', async () => {
    let made = 0;
    const lazy = deferredIterable(async () => {
      made++;
      return source([[1], [2]]).iterable;
    });
    const it = lazy[Symbol.asyncIterator]();
    expect(made).toBe(0);
    expect(await it.next()).toEqual({ value: [1], done: false });
    expect(await it.next()).toEqual({ value: [2], done: false });
    expect(made).toBe(1);
  });

  it('rejects reads when making the source fails', async () => {
    const boom = new Error('no headers');
    const it = deferredIterable<number[]>(() => Promise.reject(boom))[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toBe(boom);
  });

  it('return() closes a made source, and is harmless before one was made', async () => {
    const { iterable, log } = source([[1], [2]]);
    const it = deferredIterable(async () => iterable)[Symbol.asyncIterator]();
    await it.next();
    await it.return?.();
    expect(log.closed).toBe(true);
    const never = deferredIterable<number[]>(() => Promise.reject(new Error('unused')))[Symbol.asyncIterator]();
    expect(await never.return?.()).toEqual({ value: undefined, done: true });
    expect(await never.next()).toEqual({ value: undefined, done: true });
  });
});
