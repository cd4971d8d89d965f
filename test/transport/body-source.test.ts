import { describe, expect, it } from 'vitest';
import { PushSource, type FlowControl } from '../../src/transport/body-source.js';

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

  it('pauses the connection above 256 KiB buffered and resumes once the buffer is read', async () => {
    const f = flow();
    const src = new PushSource(f);
    for (let i = 0; i < 5; i++) src.push(bytes(64 * 1024));
    expect(f.log).toEqual(['pause']);
    for (let i = 0; i < 4; i++) await src.next();
    expect(f.log).toEqual(['pause']);
    await src.next();
    expect(f.log).toEqual(['pause', 'resume']);
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
