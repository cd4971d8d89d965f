import { describe, expect, it } from 'vitest';
import { flatten } from '../../src/client/flatten.js';
import { batchSource as source, collect } from './harness.js';

describe('flatten', () => {
  it('hands out every item of every batch in order, skipping empty batches', async () => {
    const { iterable } = source([[1, 2], [], [3], [4, 5, 6]]);
    expect(await collect(flatten(iterable))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reads the next batch only when the current one is used up', async () => {
    const { iterable, log } = source([[1, 2], [3]]);
    const it = flatten(iterable)[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    expect(log.pulled).toBe(1);
    await it.next();
    expect(log.pulled).toBe(2);
  });

  it('closes the source on break', async () => {
    const { iterable, log } = source([[1, 2], [3]]);
    for await (const x of flatten(iterable)) if (x === 1) break;
    expect(log.closed).toBe(true);
  });

  it('delivers the items before a failure, then the failure, then nothing', async () => {
    const boom = new Error('boom');
    const { iterable } = source([[1], [2]], boom);
    const it = flatten(iterable)[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: 1, done: false });
    expect(await it.next()).toEqual({ value: 2, done: false });
    await expect(it.next()).rejects.toBe(boom);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('serves overlapping next() calls in order', async () => {
    const { iterable } = source([[1], [2, 3]]);
    const it = flatten(iterable)[Symbol.asyncIterator]();
    const results = await Promise.all([it.next(), it.next(), it.next(), it.next()]);
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, undefined]);
  });
});

describe('flatten with a BatchReader', () => {
  const reader = {
    read: (batch: number[]) => ({ items: batch.map((n) => `item ${n}`), last: batch.includes(0) }),
    fail: (error: unknown) => [`failed: ${error instanceof Error ? error.message : String(error)}`],
    end: () => ['end'],
  };

  it('maps each batch and appends the end items', async () => {
    const { iterable } = source([[1, 2], [3]]);
    expect(await collect(flatten(iterable, reader))).toEqual(['item 1', 'item 2', 'item 3', 'end']);
  });

  it('stops after a batch read as last, and closes the source', async () => {
    const { iterable, log } = source([[1, 0], [2]]);
    expect(await collect(flatten(iterable, reader))).toEqual(['item 1', 'item 0']);
    expect(log.closed).toBe(true);
  });

  it('replaces a source failure with the reader’s items, or passes on what the reader throws', async () => {
    const { iterable } = source([[1]], new Error('reset'));
    expect(await collect(flatten(iterable, reader))).toEqual(['item 1', 'failed: reset']);
    const rethrow = { ...reader, fail: (error: unknown): string[] => { throw error; } };
    const bug = new TypeError('bug');
    await expect(collect(flatten(source([[1]], bug).iterable, rethrow))).rejects.toBe(bug);
  });
});
