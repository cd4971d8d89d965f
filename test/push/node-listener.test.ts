/**
 * `receiver.nodeListener` on a real node:http loopback server: a delivery is taken (204); a method
 * other than POST is 405; a body over the cap is refused by its Content-Length unread, and a chunked
 * body without one is cut off while the sender is still writing (413, the connection closed).
 */
import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { pushReceiver, type PushReceiver } from '../../src/push/index.js';
import { take, v1 } from './payloads.js';

let server: Server | undefined;

async function serve(receiver: PushReceiver): Promise<string> {
  server = createServer(receiver.nodeListener);
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
    const res = await fetch(url, { method: 'POST', body: 'x'.repeat(64 * 1024) });
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
