/**
 * `receiver.nodeListener` on a real node:http loopback server: a delivery is taken (204); a method
 * other than POST is 405; a body over the cap is refused by its Content-Length unread, and a chunked
 * body without one is cut off while the sender is still writing (413, the connection closed).
 */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pushReceiver, type PushReceiver } from '../../src/push/index.js';
import { take, v1 } from './payloads.js';

let server: Server | undefined;

async function serve(receiver: PushReceiver, withOptions = false): Promise<string> {
  server = withOptions ? createServer(receiver.serverOptions, receiver.nodeListener) : createServer(receiver.nodeListener);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('nodeListener', () => {
  it('204 for a delivery, 405 for GET; the events arrive', async () => {
    const receiver = pushReceiver({ auth: () => true });
    const url = await serve(receiver);
    const iteration = receiver.events('t1');
    const ok = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/a2a+json' }, body: JSON.stringify(v1.task('t1', 'completed', ['over node:http'])) });
    expect(ok.status).toBe(204);
    expect((await take(iteration)).at(-1)).toMatchObject({ done: true, text: 'over node:http' });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('413 by Content-Length, before the body is sent in full', async () => {
    const receiver = pushReceiver({ auth: () => true, maxBodyBytes: 16 * 1024 });
    const url = await serve(receiver);
    receiver.events('t1');
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(64 * 1024) });
    expect(res.status).toBe(413);
  });

  it('413 for a chunked body without a length, while the sender is still writing; the connection is closed', async () => {
    const receiver = pushReceiver({ auth: () => true, maxBodyBytes: 16 * 1024 });
    const url = await serve(receiver);
    receiver.events('t1');
    const chunk = Buffer.alloc(8 * 1024, 0x20);
    const outcome = await new Promise<{ status: number; connection: string | undefined; written: number }>((resolve, reject) => {
      let written = 0;
      let answered = false;
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, written });
        req.destroy();
      });
      req.on('error', (error) => (answered ? undefined : reject(error)));
      const pump = (): void => {
        // At most 16 MiB: far past the cap; the answer must come long before.
        while (!answered && written < 16 * 1024 * 1024) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    expect(outcome.status).toBe(413);
    expect(outcome.connection).toBe('close');
    expect(outcome.written).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('nodeListener read timeouts', () => {
  /** Posts `{` then one space every `everyMs`, until answered; resolves with the answer and how long it took. */
  function trickle(url: string, everyMs: number): Promise<{ status: number; connection: string | undefined; ms: number }> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setInterval> | undefined;
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        clearInterval(timer);
        res.resume();
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, ms: performance.now() - started });
        req.destroy();
      });
      req.on('error', (error) => {
        clearInterval(timer);
        reject(error);
      });
      req.write('{');
      timer = setInterval(() => req.write(' '), everyMs);
    });
  }

  it('a body trickled one byte every 500 ms is cut off at the body deadline (408, the connection closed)', async () => {
    const receiver = pushReceiver({ auth: () => true, bodyTimeoutMs: 1500 });
    const url = await serve(receiver);
    receiver.events('t1');
    const outcome = await trickle(url, 500);
    expect(outcome.status).toBe(408);
    expect(outcome.connection).toBe('close');
    expect(outcome.ms).toBeGreaterThan(1400);
    expect(outcome.ms).toBeLessThan(3000);
    await receiver.close();
  });

  it('by default too: cut off within the 5 s body deadline', async () => {
    const receiver = pushReceiver({ auth: () => true });
    const url = await serve(receiver);
    receiver.events('t1');
    const outcome = await trickle(url, 500);
    expect(outcome.status).toBe(408);
    expect(outcome.ms).toBeLessThan(6500);
    await receiver.close();
  }, 10_000);

  it('a body that stops arriving is cut off after the idle gap', async () => {
    const receiver = pushReceiver({ auth: () => true, bodyIdleMs: 300 });
    const url = await serve(receiver);
    receiver.events('t1');
    const outcome = await trickle(url, 60_000);
    expect(outcome.status).toBe(408);
    expect(outcome.ms).toBeLessThan(1500);
    await receiver.close();
  });
});

describe('headers timeout (serverOptions)', () => {
  it('serverOptions bound the headers (headersTimeoutMs) and the whole request', () => {
    expect(pushReceiver().serverOptions).toEqual({ headersTimeout: 10_000, requestTimeout: 16_000, connectionsCheckingInterval: 1000 });
    expect(pushReceiver({ headersTimeoutMs: 500, bodyTimeoutMs: 1000 }).serverOptions).toEqual({ headersTimeout: 500, requestTimeout: 2500, connectionsCheckingInterval: 1000 });
    for (const bad of [{ bodyTimeoutMs: 0 }, { bodyIdleMs: -1 }, { headersTimeoutMs: 1.5 }, { maxDepth: Number.NaN }]) expect(() => pushReceiver(bad)).toThrow(TypeError);
  });

  it('headers trickled one byte every 100 ms are cut off at headersTimeoutMs (408 from Node, the socket closed)', async () => {
    const receiver = pushReceiver({ auth: () => true, headersTimeoutMs: 800 });
    const url = new URL(await serve(receiver, true));
    const started = performance.now();
    const outcome = await new Promise<{ text: string; ms: number }>((resolve) => {
      let text = '';
      const socket = connect(Number(url.port), url.hostname, () => {
        const head = 'POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Slow: ' + 'a'.repeat(1000);
        let i = 0;
        const timer = setInterval(() => {
          if (i < head.length && !socket.destroyed) socket.write(head[i++] as string);
        }, 100);
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ text, ms: performance.now() - started });
        });
        socket.on('error', () => undefined);
      });
    });
    // Node checks its timers every connectionsCheckingInterval (1 s in serverOptions).
    expect(outcome.text).toMatch(/^HTTP\/1\.1 408/);
    expect(outcome.ms).toBeGreaterThan(700);
    expect(outcome.ms).toBeLessThan(2500);
  });
});
