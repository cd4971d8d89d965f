import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COALESCE_MS, HOT_READS, PushSource, type FlowControl } from '../../src/transport/body-source.js';

/** Flow control that records what the source asked of the HTTP stack. */
function flow(): FlowControl & { log: string[]; reason?: Error } {
  const f: FlowControl & { log: string[]; reason?: Error } = {
    log: [],
    pause: () => f.log.push('pause'),
    resume: () => f.log.push('resume'),
    abort: (reason) => {
      f.log.push('abort');
      f.reason = reason;
    },
  };
  return f;
}

const bytes = (n: number) => new Uint8Array(n);

describe('PushSource', () => {
  it('hands out chunks in arrival order, whether they came before or after the read', async () => {
    const src = new PushSource(flow());
    src.push(bytes(1));
    const pending = src.next();
    expect((await pending)?.byteLength).toBe(1);
    const waiting = src.next();
    src.push(bytes(2));
    expect((await waiting)?.byteLength).toBe(2);
    src.end();
    expect(await src.next()).toBeUndefined();
  });

  it('joins queued chunks into one of at most 16 KiB per read, in order; a larger chunk goes alone', async () => {
    const src = new PushSource(flow());
    for (let i = 0; i < 6; i++) src.push(new Uint8Array(4096).fill(i));
    src.push(new Uint8Array(40_000).fill(6));
    const sizes: number[] = [];
    const firsts: number[] = [];
    src.end();
    for (let c = await src.next(); c !== undefined; c = await src.next()) {
      sizes.push(c.byteLength);
      firsts.push(c[0] ?? -1);
    }
    expect(sizes).toEqual([16_384, 8192, 40_000]);
    expect(firsts).toEqual([0, 4, 6]);
  });

  it('keeps the order over many partial takes while more keeps arriving (a queue that never empties)', async () => {
    const src = new PushSource(flow());
    let pushed = 0;
    const push = () => src.push(new Uint8Array(10_000).fill(pushed++ % 256));
    for (let i = 0; i < 3; i++) push();
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) {
      seen.push((await src.next())?.[0] ?? -1);
      push();
    }
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('hands out everything queued as one chunk, in order', async () => {
    const src = new PushSource(flow());
    src.push(Uint8Array.of(1, 2));
    src.push(Uint8Array.of(3));
    src.push(Uint8Array.of(4, 5, 6));
    expect([...((await src.next()) ?? [])]).toEqual([1, 2, 3, 4, 5, 6]);
    src.end();
    expect(await src.next()).toBeUndefined();
  });

  it('pauses the connection above 256 KiB buffered and resumes once the buffer is read', async () => {
    const f = flow();
    const src = new PushSource(f);
    for (let i = 0; i < 4; i++) src.push(bytes(64 * 1024));
    expect(f.log).toEqual([]);
    src.push(bytes(1));
    expect(f.log).toEqual(['pause']);
    for (let i = 0; i < 4; i++) expect((await src.next())?.byteLength).toBe(64 * 1024);
    expect(f.log).toEqual(['pause']);
    expect((await src.next())?.byteLength).toBe(1);
    expect(f.log).toEqual(['pause', 'resume']);
  });

  it('counts only what is still queued against the 256 KiB: chunks taken no longer count', async () => {
    const f = flow();
    const src = new PushSource(f);
    for (let i = 0; i < 4; i++) src.push(bytes(50 * 1024));
    for (let i = 0; i < 3; i++) await src.next();
    for (let i = 0; i < 4; i++) src.push(bytes(50 * 1024));
    expect(f.log).toEqual([]);
    src.push(bytes(10 * 1024));
    expect(f.log).toEqual(['pause']);
  });

  it('reports a network failure after the chunks that arrived before it', async () => {
    const src = new PushSource(flow());
    src.push(bytes(3));
    const boom = new Error('reset');
    src.fail(boom, false);
    expect((await src.next())?.byteLength).toBe(3);
    await expect(src.next()).rejects.toBe(boom);
  });

  it('reports a timer or abort failure at once, dropping what is buffered', async () => {
    const src = new PushSource(flow());
    src.push(bytes(3));
    const timeout = new Error('idle');
    src.fail(timeout, true);
    await expect(src.next()).rejects.toBe(timeout);
  });

  it('rejects a read in flight when the body fails, and keeps the first failure', async () => {
    const src = new PushSource(flow());
    const waiting = src.next();
    const first = new Error('first');
    src.fail(first, true);
    src.fail(new Error('second'), true);
    await expect(waiting).rejects.toBe(first);
    await expect(src.next()).rejects.toBe(first);
  });

  it('destroy() before the end aborts the exchange; after the end it only drops the buffer', () => {
    const f = flow();
    const src = new PushSource(f);
    src.push(bytes(1));
    src.destroy();
    expect(f.log).toEqual(['abort']);
    expect(f.reason).toMatchObject({ code: 'UND_ERR_ABORTED' });
    const g = flow();
    const done = new PushSource(g);
    done.push(bytes(1));
    done.end();
    done.destroy();
    expect(g.log).toEqual([]);
  });

  it('ignores chunks after the body settled', async () => {
    const src = new PushSource(flow());
    src.end();
    src.push(bytes(1));
    expect(await src.next()).toBeUndefined();
  });
});

describe('PushSource with coalesce (event streams)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));
  /** `count` network reads of `size` bytes, back to back (each ends before the next begins). */
  const reads = async (src: PushSource, count: number, size: number) => {
    for (let i = 0; i < count; i++) {
      src.push(bytes(size));
      await tick();
    }
  };

  it('hands the chunks of one network read to a waiting reader together', async () => {
    const src = new PushSource(flow(), true);
    const waiting = src.next();
    src.push(Uint8Array.of(1));
    src.push(Uint8Array.of(2, 3));
    expect([...((await waiting) ?? [])]).toEqual([1, 2, 3]);
  });

  it('holds the connection for COALESCE_MS once small reads have come back to back HOT_READS times, then resumes it', async () => {
    const f = flow();
    const src = new PushSource(f, true);
    await reads(src, HOT_READS, 300);
    expect(f.log).toEqual([]);
    src.push(bytes(300));
    await tick();
    expect(f.log).toEqual(['pause']);
    vi.advanceTimersByTime(COALESCE_MS);
    expect(f.log).toEqual(['pause', 'resume']);
    expect((await src.next())?.byteLength).toBe(300 * (HOT_READS + 1));
  });

  it('keeps holding while the stream stays hot: the reads a hold gathered continue the row', async () => {
    const f = flow();
    const src = new PushSource(f, true);
    await reads(src, HOT_READS + 1, 300);
    vi.advanceTimersByTime(COALESCE_MS);
    // What gathered during the hold, read at once: a large read never starts a hold.
    src.push(bytes(40 * 1024));
    await tick();
    expect(f.log).toEqual(['pause', 'resume']);
    src.push(bytes(300));
    await tick();
    expect(f.log).toEqual(['pause', 'resume', 'pause']);
  });

  it('never holds a short stream: a task, its status and its end arriving at once', async () => {
    const f = flow();
    const src = new PushSource(f, true);
    await reads(src, HOT_READS, 200);
    src.end();
    expect(f.log).toEqual([]);
  });

  it('never holds for a large read, nor for reads further apart than COALESCE_MS', async () => {
    const f = flow();
    const src = new PushSource(f, true);
    await reads(src, HOT_READS + 1, 16 * 1024);
    expect(f.log).toEqual([]);
    for (let i = 0; i <= HOT_READS; i++) {
      vi.advanceTimersByTime(COALESCE_MS * 2);
      src.push(bytes(300));
      await tick();
    }
    expect(f.log).toEqual([]);
  });

  it('ends a hold without resuming when the body ends, fails or is destroyed during it', async () => {
    for (const settle of [(s: PushSource) => s.end(), (s: PushSource) => s.fail(new Error('reset'), false), (s: PushSource) => s.destroy()]) {
      const f = flow();
      const src = new PushSource(f, true);
      await reads(src, HOT_READS + 1, 10);
      settle(src);
      vi.advanceTimersByTime(COALESCE_MS * 5);
      expect(f.log.filter((x) => x !== 'abort')).toEqual(['pause']);
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('leaves a connection paused for backpressure paused when a hold ends, until the reader takes the buffer', async () => {
    const f = flow();
    const src = new PushSource(f, true);
    await reads(src, HOT_READS, 10);
    for (let i = 0; i < 5; i++) src.push(bytes(64 * 1024));
    await tick();
    src.push(bytes(10));
    await tick();
    expect(f.log).toEqual(['pause', 'pause']);
    vi.advanceTimersByTime(COALESCE_MS);
    expect(f.log).toEqual(['pause', 'pause']);
    // The small reads, the five 64 KiB ones, then the last small one.
    for (let i = 0; i < 6; i++) await src.next();
    expect(f.log).toEqual(['pause', 'pause']);
    await src.next();
    expect(f.log).toEqual(['pause', 'pause', 'resume']);
  });

  it('delivers the chunks of a read before the network failure that ended it', async () => {
    const src = new PushSource(flow(), true);
    const waiting = src.next();
    src.push(Uint8Array.of(7));
    const reset = new Error('reset');
    src.fail(reset, false);
    expect([...((await waiting) ?? [])]).toEqual([7]);
    await expect(src.next()).rejects.toBe(reset);
  });
});
