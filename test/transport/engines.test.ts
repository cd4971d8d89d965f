import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpEngine } from '../../src/transport/engine.js';
import { readErrorBody } from '../../src/transport/read-error-body.js';
import { refusedPort, startFaultServer, startSlowConnectListener } from '../helpers/fault-server.js';
import type { FaultServer } from '../helpers/fault-server.js';
import { ENGINES, activeTimers, failure, req, settle, sseEvents, timersAfterTeardown } from './harness.js';

describe.each(ENGINES)('$name engine against a fault server', ({ make }) => {
  let server: FaultServer;
  let engine: HttpEngine;
  let timersBefore = 0;

  beforeAll(async () => {
    server = await startFaultServer();
    engine = make();
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });
  afterEach(async () => {
    expect(await timersAfterTeardown(timersBefore)).toBeLessThanOrEqual(timersBefore);
  });
  const mark = () => {
    timersBefore = activeTimers();
  };

  it('returns status, lower-cased headers and the body of a plain answer', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/ok`));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(await res.text()).toBe('{"ok":true}');
  });

  it('sends a POST body', async () => {
    mark();
    server.route('/echo', (rq, rs) => {
      const parts: Buffer[] = [];
      rq.on('data', (c: Buffer) => parts.push(c));
      rq.on('end', () => rs.end(Buffer.concat(parts)));
    });
    const res = await engine.send(req(`${server.url}/echo`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }));
    expect(await res.text()).toBe('{"a":1}');
  });

  it('fires read-timeout when the server accepts and never answers, and closes the socket', async () => {
    mark();
    const { error, ms } = await failure(() => engine.send(req(`${server.url}/never`, { timeouts: { connectMs: 100, readMs: 200, streamIdleMs: 5_000 } })));
    expect(error.kind).toBe('read-timeout');
    expect(error.phase).toBe('after-send');
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(700);
    await server.waitForNoSockets();
  });

  it('fires read-timeout when headers arrive and the body stalls', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/stall-body`, { timeouts: { connectMs: 1_000, readMs: 200, streamIdleMs: 5_000 } }));
    expect(res.status).toBe(200);
    const { error, ms } = await failure(() => res.text());
    expect(error.kind).toBe('read-timeout');
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(700);
    await server.waitForNoSockets();
  });

  it('fires idle-timeout after the last SSE event and keeps the last event id', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/sse?gaps=10,10`, { timeouts: { connectMs: 1_000, readMs: 1_000, streamIdleMs: 200 } }));
    const seen: string[] = [];
    const start = performance.now();
    const { error } = await failure(async () => {
      for await (const event of sseEvents(res)) seen.push(event.data);
    });
    expect(seen).toEqual(['{"n":0}', '{"n":1}']);
    expect(error.kind).toBe('idle-timeout');
    expect(performance.now() - start).toBeGreaterThanOrEqual(200);
    expect(performance.now() - start).toBeLessThan(800);
    expect(res.lastEventId).toBe('1');
    await server.waitForNoSockets();
  });

  it('reports a reset mid-body as connection/reset after-send', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/reset`));
    const { error } = await failure(() => res.text());
    expect(error.kind).toBe('connection');
    expect(error.reason).toBe('reset');
    expect(error.phase).toBe('after-send');
    await server.waitForNoSockets();
  });

  it('reports a reset before headers as a connection failure after-send (the request may have been processed)', async () => {
    mark();
    const { error } = await failure(() => engine.send(req(`${server.url}/reset-before-headers`, { method: 'POST', body: '{}' })));
    expect(error.kind).toBe('connection');
    expect(error.reason).toBe('reset');
    expect(error.phase).toBe('after-send');
    await server.waitForNoSockets();
  });

  it('stops a body larger than maxResponseBytes with invalid-response (field body)', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/big?bytes=2000000`, { limits: { maxResponseBytes: 10_000, maxEventBytes: 1_000 } }));
    const { error } = await failure(() => res.text());
    expect(error.kind).toBe('invalid-response');
    expect(error.field).toBe('body');
    await server.waitForNoSockets();
  });

  it('treats HTTP 500 as a response and reads at most 8 KiB of its body for reports', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/html500`));
    expect(res.status).toBe(500);
    const text = await readErrorBody(res);
    expect(text).toContain('Internal Server Error');
    expect(text.length).toBeLessThanOrEqual(8 * 1024);
  });

  it('reports a refused port as connection/refused before-send', async () => {
    mark();
    const port = await refusedPort();
    const { error } = await failure(() => engine.send(req(`http://127.0.0.1:${port}/`)));
    expect(error.kind).toBe('connection');
    expect(error.reason).toBe('refused');
    expect(error.phase).toBe('before-send');
  });

  it('fires deadline-exceeded at the absolute deadline', async () => {
    mark();
    const deadline = performance.now() + 200;
    const { error } = await failure(() => engine.send(req(`${server.url}/never`, { deadline })));
    const late = performance.now() - deadline;
    expect(error.kind).toBe('deadline-exceeded');
    // Never before the deadline; soon after it (generous for a loaded machine).
    expect(late).toBeGreaterThanOrEqual(-2);
    expect(late).toBeLessThan(500);
    await server.waitForNoSockets();
  });

  it('fails at once, sending nothing, when the deadline has passed', async () => {
    mark();
    const before = server.acceptedSockets;
    const { error, ms } = await failure(() => engine.send(req(`${server.url}/ok`, { deadline: performance.now() - 1 })));
    expect(error.kind).toBe('deadline-exceeded');
    expect(error.phase).toBe('before-send');
    expect(ms).toBeLessThan(500);
    await settle(50);
    expect(server.acceptedSockets).toBe(before);
  });

  it('bounds a stream by the deadline too', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/sse?gaps=0`, { deadline: performance.now() + 250 }));
    const { error } = await failure(async () => {
      for await (const event of sseEvents(res)) expect(event.id).toBe('0');
    });
    expect(error.kind).toBe('deadline-exceeded');
    await server.waitForNoSockets();
  });

  describe('abort', () => {
    it('before sending: aborted with the reason as cause, nothing sent', async () => {
      mark();
      const reason = new Error('stop');
      const before = server.acceptedSockets;
      const { error } = await failure(() => engine.send(req(`${server.url}/ok`, { signal: AbortSignal.abort(reason) })));
      expect(error.kind).toBe('aborted');
      expect(error.cause).toBe(reason);
      await settle(50);
      expect(server.acceptedSockets).toBe(before);
    });

    it('while connecting', async () => {
      mark();
      const slow = await startSlowConnectListener();
      try {
        const ac = new AbortController();
        setTimeout(() => ac.abort('bye'), 100);
        const { error, ms } = await failure(() => engine.send(req(`${slow.url}/`, { signal: ac.signal })));
        expect(error.kind).toBe('aborted');
        expect(error.cause).toBe('bye');
        expect(ms).toBeLessThan(600);
      } finally {
        await slow.close();
      }
    });

    it('while waiting for headers', async () => {
      mark();
      const ac = new AbortController();
      setTimeout(() => ac.abort('bye'), 100);
      const { error, ms } = await failure(() => engine.send(req(`${server.url}/never`, { signal: ac.signal })));
      expect(error.kind).toBe('aborted');
      expect(error.cause).toBe('bye');
      expect(ms).toBeLessThan(600);
      await server.waitForNoSockets();
    });

    it('while reading a body', async () => {
      mark();
      const ac = new AbortController();
      const res = await engine.send(req(`${server.url}/stall-body`, { signal: ac.signal }));
      setTimeout(() => ac.abort('bye'), 100);
      const { error } = await failure(() => res.text());
      expect(error.kind).toBe('aborted');
      expect(error.cause).toBe('bye');
      await server.waitForNoSockets();
    });

    it('mid-stream', async () => {
      mark();
      const ac = new AbortController();
      const res = await engine.send(req(`${server.url}/sse?gaps=0,0`, { signal: ac.signal }));
      let n = 0;
      const { error } = await failure(async () => {
        for await (const _event of sseEvents(res)) {
          n += 1;
          if (n === 2) setTimeout(() => ac.abort('bye'), 50);
        }
      });
      expect(n).toBe(2);
      expect(error.kind).toBe('aborted');
      await server.waitForNoSockets();
    });

    it('closes the connection that carried the request at once, and never sends the request again', async () => {
      mark();
      let requests = 0;
      let arrived!: () => void;
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      let closed: Promise<number> | undefined;
      server.route('/held', (rq) => {
        requests += 1;
        rq.resume();
        closed = new Promise((resolve) => rq.socket.once('close', () => resolve(performance.now())));
        arrived();
      });
      const ac = new AbortController();
      const sending = failure(() => engine.send(req(`${server.url}/held`, { signal: ac.signal })));
      await arrival;
      const abortedAt = performance.now();
      ac.abort('bye');
      expect((await sending).error.kind).toBe('aborted');
      expect((await closed) ?? Number.POSITIVE_INFINITY).toBeLessThan(abortedAt + 500);
      await settle(100);
      expect(requests).toBe(1);
    });
  });

  it('closes the server-side socket when the consumer breaks out of a stream', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/sse?gaps=0,50,50,50,50,50,50`));
    for await (const event of sseEvents(res)) {
      expect(event.data).toBe('{"n":0}');
      break;
    }
    await server.waitForNoSockets();
  });

  it('close() releases an unread body', async () => {
    mark();
    const res = await engine.send(req(`${server.url}/stall-body`));
    await res.close();
    await server.waitForNoSockets();
  });
});

describe.each(ENGINES)('$name engine against a server that does not speak HTTP', ({ make }) => {
  it('answers garbage: invalid-response naming the HTTP framing, after sending, the socket closed', async () => {
    const { createServer } = await import('node:net');
    const sockets = new Set<import('node:net').Socket>();
    const raw = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nBad Header Line\r\n\r\n{}'));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as import('node:net').AddressInfo).port;
    const engine = make();
    try {
      const { error } = await failure(async () => {
        const res = await engine.send(req(`http://127.0.0.1:${port}/`));
        await res.text();
      });
      expect([error.kind, error.field, error.phase]).toEqual(['invalid-response', 'http', 'after-send']);
      for (let i = 0; i < 100 && sockets.size > 0; i++) await settle(10);
      expect(sockets.size).toBe(0);
    } finally {
      await engine.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });
});
