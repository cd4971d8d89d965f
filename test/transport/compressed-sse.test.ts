import type { ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEngine, SseEvent } from '../../src/transport/engine.js';
import { startFaultServer } from '../helpers/fault-server.js';
import type { FaultServer } from '../helpers/fault-server.js';
import { BOMB_MEMBER, codingsFor, compressor, headerOf, writeFlushed } from '../helpers/compress.js';
import type { TestCoding } from '../helpers/compress.js';
import { ENGINES, failure, req, sseEvents } from './harness.js';

/** Signals from the client to the server: the server waits for one before it writes its next event. */
function signals(): { wait: () => Promise<void>; signal: () => void } {
  let owed = 0;
  let waiter: (() => void) | undefined;
  return {
    wait: () =>
      new Promise<void>((resolve) => {
        if (owed > 0) {
          owed--;
          resolve();
        } else waiter = resolve;
      }),
    signal: () => {
      const w = waiter;
      waiter = undefined;
      if (w !== undefined) w();
      else owed++;
    },
  };
}

/** Starts a compressed SSE answer: the headers, and the compressor whose flushed output goes to `res`. */
function startCompressedSse(res: ServerResponse, coding: TestCoding): Transform {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': headerOf(coding) });
  res.flushHeaders();
  res.on('error', () => undefined);
  return compressor(coding);
}

const event = (i: number) => `id: ${i}\ndata: {"n":${i},"text":"${'token '.repeat(20)}"}\n\n`;

describe.each(ENGINES)('$name engine: compressed SSE', ({ name, make }) => {
  let server: FaultServer;
  let engine: HttpEngine;

  beforeAll(async () => {
    server = await startFaultServer();
    engine = make();
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it.each(codingsFor(name))('delivers each %s-flushed event before the server writes the next one', async (coding) => {
    const gate = signals();
    const written: number[] = [];
    server.route(`/sse-${coding}`, (_rq, rs) => {
      const c = startCompressedSse(rs, coding);
      void (async () => {
        for (let i = 0; i < 4; i++) {
          rs.write(await writeFlushed(c, event(i)));
          written.push(i);
          // The next event is written only once the client says it has this one.
          await gate.wait();
        }
        c.on('data', (b: Buffer) => rs.write(b));
        c.on('end', () => rs.end());
        c.end();
      })();
    });
    // A client that buffered to the end would never see event 0: it would end with idle-timeout instead.
    const res = await engine.send(req(`${server.url}/sse-${coding}`, { timeouts: { connectMs: 2_000, readMs: 2_000, streamIdleMs: 3_000 } }));
    const got: SseEvent[] = [];
    for await (const ev of sseEvents(res)) {
      got.push(ev);
      expect(written).toEqual(Array.from({ length: got.length }, (_, i) => i));
      gate.signal();
    }
    expect(got.map((e) => e.id)).toEqual(['0', '1', '2', '3']);
    expect(got[3]?.data).toBe(event(3).slice('id: 3\ndata: '.length, -2));
  });

  it('applies maxEventBytes to the decoded size: an SSE bomb ends as invalid-response (field event) after the events before it', async () => {
    let members = 0;
    server.route('/sse-bomb', (_rq, rs) => {
      rs.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      rs.write(zlib.gzipSync('data: before\n\ndata: '));
      const pump = () => {
        while (!rs.destroyed && members < 16 * 1024) {
          members++;
          if (!rs.write(BOMB_MEMBER)) {
            rs.once('drain', pump);
            return;
          }
        }
        if (!rs.destroyed) rs.end();
      };
      rs.on('error', () => undefined);
      pump();
    });
    const before = process.memoryUsage();
    const got: string[] = [];
    const { error, ms } = await failure(async () => {
      const res = await engine.send(req(`${server.url}/sse-bomb`, { limits: { maxResponseBytes: 1024, maxEventBytes: 2 * 1024 * 1024 } }));
      for await (const ev of sseEvents(res)) got.push(ev.data);
    });
    const after = process.memoryUsage();
    expect(got).toEqual(['before']);
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('event');
    expect(members).toBeLessThan(16 * 1024);
    expect(ms).toBeLessThan(5_000);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 1024 * 1024);
    expect(after.rss - before.rss).toBeLessThan(256 * 1024 * 1024);
  });

  it('bounds the gap between compressed events with the idle timer', async () => {
    server.route('/sse-stall', (_rq, rs) => {
      const c = startCompressedSse(rs, 'gzip');
      void writeFlushed(c, event(0)).then((b) => rs.write(b));
    });
    const res = await engine.send(req(`${server.url}/sse-stall`, { timeouts: { connectMs: 1_000, readMs: 1_000, streamIdleMs: 250 } }));
    const got: string[] = [];
    const { error, ms } = await failure(async () => {
      for await (const ev of sseEvents(res)) got.push(ev.id ?? '');
    });
    expect(got).toEqual(['0']);
    expect(error.kind).toBe('idle-timeout');
    expect(ms).toBeGreaterThanOrEqual(200);
    expect(ms).toBeLessThan(1_500);
  });

  it('ends a compressed stream cut mid-way as connection, after the events that arrived', async () => {
    server.route('/sse-cut', (rq, rs) => {
      const c = startCompressedSse(rs, 'gzip');
      void (async () => {
        rs.write(await writeFlushed(c, event(0)));
        const half = await writeFlushed(c, event(1));
        rs.write(half.subarray(0, half.length >> 1), () => setTimeout(() => rq.socket.resetAndDestroy(), 20));
      })();
    });
    const res = await engine.send(req(`${server.url}/sse-cut`));
    const got: string[] = [];
    const { error } = await failure(async () => {
      for await (const ev of sseEvents(res)) got.push(ev.id ?? '');
    });
    expect(got).toEqual(['0']);
    expect(error.kind).toBe('connection');
  });

  it.runIf(name === 'undici')('ends a truncated compressed stream as invalid-response (field content-encoding), after its events', async () => {
    server.route('/sse-truncated', (_rq, rs) => {
      const c = startCompressedSse(rs, 'gzip');
      // A complete HTTP body whose gzip stream has no end (no final block, no trailer).
      void writeFlushed(c, event(0)).then((b) => rs.end(b));
    });
    const res = await engine.send(req(`${server.url}/sse-truncated`));
    const got: string[] = [];
    const { error } = await failure(async () => {
      for await (const ev of sseEvents(res)) got.push(ev.id ?? '');
    });
    expect(got).toEqual(['0']);
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('content-encoding');
  });
});
