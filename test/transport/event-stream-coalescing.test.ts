import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UndiciEngine } from '../../src/transport/undici-engine.js';
import { activeTimers, failure, req, sseEvents, timersAfterTeardown } from './harness.js';

/**
 * Event streams read by the undici engine gather back-to-back frames (a short hold of the connection,
 * `COALESCE_MS`). What a reader relies on whatever the timing: every frame arrives, in order; a frame
 * never waits for the next one; the hold ends with the stream, its abort, or its failure.
 */
describe('undici engine: event streams whose frames come one write each', () => {
  let server: Server;
  let url = '';
  let connections = 0;
  /** The response of the stream the test drives. */
  let current: ServerResponse | undefined;
  let opened: (res: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((rq, rs) => {
      rs.writeHead(200, { 'content-type': 'text/event-stream' });
      rs.flushHeaders();
      current = rs;
      opened(rs);
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  let engine: UndiciEngine;
  beforeEach(() => {
    engine = new UndiciEngine();
  });
  afterEach(async () => {
    await engine.close();
  });

  /** Opens a stream: the client's response and the server's side of it. */
  const open = async (signal?: AbortSignal) => {
    const serving = new Promise<ServerResponse>((resolve) => {
      opened = resolve;
    });
    const res = await engine.send(req(url, signal === undefined ? {} : { signal }));
    return { res, rs: await serving };
  };
  const frame = (n: number) => `id: ${n}\ndata: {"token":"t${n}","pad":"${'x'.repeat(200)}"}\n\n`;
  /** Writes frames first..last one `write` each, the event loop turning between them (how servers flush tokens). */
  const writeBackToBack = async (rs: ServerResponse, first: number, last: number) => {
    for (let n = first; n <= last; n++) {
      rs.write(frame(n));
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('delivers every frame of a burst in order, and the last ones without waiting for more data', async () => {
    const { res, rs } = await open();
    const seen: string[] = [];
    let all: () => void = () => undefined;
    const gotAll = new Promise<void>((resolve) => {
      all = resolve;
    });
    const reading = (async () => {
      for await (const event of sseEvents(res)) {
        seen.push(event.id ?? '');
        if (seen.length === 500) all();
      }
    })();
    await writeBackToBack(rs, 1, 500);
    const written = performance.now();
    // The stream stays open: the held frames must come by themselves.
    await gotAll;
    expect(performance.now() - written).toBeLessThan(1_000);
    rs.end();
    await reading;
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => String(i + 1)));
  });

  it('never holds a frame of a paced stream until the next one: each arrives before the next is written', async () => {
    const { res, rs } = await open();
    const events = sseEvents(res);
    for (let n = 1; n <= 10; n++) {
      const write = performance.now();
      rs.write(frame(n));
      const { value } = await events.next();
      expect(value?.id).toBe(String(n));
      expect(performance.now() - write).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    rs.end();
    expect((await events.next()).done).toBe(true);
  });

  it('leaves the kept-alive connection reading normally for the next request after a held stream ends', async () => {
    const before = connections;
    for (let round = 0; round < 3; round++) {
      const { res, rs } = await open();
      const reading = (async () => {
        let count = 0;
        for await (const _ of sseEvents(res)) count++;
        return count;
      })();
      await writeBackToBack(rs, 1, 200);
      rs.end();
      expect(await reading).toBe(200);
      // undici returns the socket to the pool once its own completion ran.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(connections - before).toBe(1);
  });

  it('ends a hold at once when the caller aborts the stream, leaving no timer behind', async () => {
    const timers = activeTimers();
    const controller = new AbortController();
    const { res, rs } = await open(controller.signal);
    let count = 0;
    const { error, ms } = await failure(async () => {
      const writing = writeBackToBack(rs, 1, 2_000);
      for await (const _ of sseEvents(res)) {
        if (++count === 100) controller.abort(new Error('user gave up'));
      }
      await writing;
    });
    expect(error.kind).toBe('aborted');
    expect(ms).toBeLessThan(5_000);
    expect(count).toBeGreaterThanOrEqual(100);
    expect(await timersAfterTeardown(timers)).toBeLessThanOrEqual(timers);
    expect(current?.destroyed || current?.writableEnded).toBe(true);
  });
});
