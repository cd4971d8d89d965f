import { describe, expect, it } from 'vitest';
import { PushSource, type FlowControl } from '../../src/transport/body-source.js';
import { DecodedReader, type DecodedSource } from '../../src/transport/decoded-reader.js';
import type { DecodedBatch, SseEvent } from '../../src/transport/engine.js';
import { SseFramer } from '../../src/transport/sse-reader.js';

const enc = new TextEncoder();

/** A reader over a real PushSource and SseFramer; records the timer and release calls it makes. */
function setup(decode: (events: readonly SseEvent[]) => DecodedBatch<string> = (events) => ({ items: events.map((e) => e.data) })) {
  const log: string[] = [];
  const flow: FlowControl = { pause: () => log.push('pause'), resume: () => log.push('resume'), abort: () => log.push('abort') };
  const body = new PushSource(flow);
  let finished = false;
  const source: DecodedSource = {
    read: () => body.next(),
    readError: (error) => new Error(`read failed: ${(error as Error).message}`),
    start: () => log.push('start'),
    touch: () => log.push('touch'),
    finish: (destroy) => {
      if (finished) return;
      finished = true;
      log.push(`finish(${destroy})`);
      if (destroy) body.destroy();
    },
  };
  const reader = new DecodedReader(source, new SseFramer(1 << 20), decode, (error) => new Error(`onError: ${(error as Error).message}`));
  return { reader, body, log, push: (text: string) => body.push(enc.encode(text)) };
}

describe('DecodedReader', () => {
  it('delivers one batch per read that completes events, skipping reads that complete none', async () => {
    const { reader, push, body, log } = setup();
    push('data: a\n\ndata: b\n\ndata: c');
    expect(await reader.next()).toEqual({ value: ['a', 'b'], done: false });
    const next = reader.next();
    push('\n');
    await new Promise((resolve) => setImmediate(resolve));
    push('\n');
    body.end();
    expect(await next).toEqual({ value: ['c'], done: false });
    expect(await reader.next()).toEqual({ value: undefined, done: true });
    expect(log).toEqual(['start', 'touch', 'touch', 'finish(false)']);
  });

  it('serves overlapping next() calls in order, each with its own batch', async () => {
    const { reader, push, body } = setup();
    const first = reader.next();
    const second = reader.next();
    const third = reader.next();
    push('data: 1\n\n');
    await Promise.resolve();
    push('data: 2\n\n');
    body.end();
    expect(await Promise.all([first, second, third])).toEqual([
      { value: ['1'], done: false },
      { value: ['2'], done: false },
      { value: undefined, done: true },
    ]);
  });

  it('delivers the items of a batch before the failure found in it, then releases the connection', async () => {
    const { reader, push, log } = setup((events) => {
      const bad = events.findIndex((e) => e.data === 'bad');
      if (bad < 0) return { items: events.map((e) => e.data) };
      return { items: events.slice(0, bad).map((e) => e.data), failure: { error: new Error('bad frame') } };
    });
    push('data: ok\n\ndata: bad\n\ndata: never\n\n');
    expect(await reader.next()).toEqual({ value: ['ok'], done: false });
    await expect(reader.next()).rejects.toThrow('onError: bad frame');
    expect(log.at(-2)).toBe('finish(true)');
    expect(log.at(-1)).toBe('abort');
    expect(await reader.next()).toEqual({ value: undefined, done: true });
  });

  it('reports a failed read through readError and onError, once', async () => {
    const { reader, body } = setup();
    const pending = reader.next();
    body.fail(new Error('reset'), false);
    await expect(pending).rejects.toThrow('onError: read failed: reset');
    expect(await reader.next()).toEqual({ value: undefined, done: true });
  });

  it('return() releases the body at once, and a read that was waiting ends as done', async () => {
    const { reader, log } = setup();
    const waiting = reader.next();
    expect(await reader.return()).toEqual({ value: undefined, done: true });
    expect(log).toEqual(['start', 'finish(true)', 'abort']);
    expect(await waiting).toEqual({ value: undefined, done: true });
  });

  it('an event over the cap ends the stream after the events before it', async () => {
    const log: string[] = [];
    const body = new PushSource({ pause: () => undefined, resume: () => undefined, abort: () => log.push('abort') });
    const source: DecodedSource = { read: () => body.next(), readError: (e) => e, start: () => undefined, touch: () => undefined, finish: (d) => log.push(`finish(${d})`) };
    const reader = new DecodedReader(source, new SseFramer(32), (events) => ({ items: events.map((e) => e.data) }), (e) => e);
    body.push(enc.encode(`data: small\n\ndata: ${'x'.repeat(64)}\n\n`));
    expect(await reader.next()).toEqual({ value: ['small'], done: false });
    await expect(reader.next()).rejects.toMatchObject({ kind: 'invalid-response', field: 'event' });
    expect(log).toEqual(['finish(true)']);
  });
});
