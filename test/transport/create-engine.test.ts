import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/transport/create-engine.js';
import { readErrorBody } from '../../src/transport/read-error-body.js';
import { req, sseEvents } from './harness.js';

describe('createEngine', () => {
  it('picks undici by default and fetch when asked', async () => {
    const a = createEngine({});
    const b = createEngine({ fetch: 'global' });
    const agent = new Agent();
    const c = createEngine({ dispatcher: agent });
    expect([a.name, b.name, c.name]).toEqual(['undici', 'fetch', 'undici']);
    await Promise.all([a.close(), b.close(), c.close()]);
    await agent.close();
  });

  it("with fetch 'global' looks globalThis.fetch up at each call, so msw started later intercepts it", async () => {
    const engine = createEngine({ fetch: 'global' });
    const msw = setupServer(
      http.post('http://agent.test/rpc', () => HttpResponse.json({ hello: 'msw' })),
      http.get('http://agent.test/stream', () =>
        new HttpResponse(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('id: 3\ndata: x\n\n')); c.close(); } }), {
          headers: { 'content-type': 'text/event-stream' },
        }),
      ),
      http.get('http://agent.test/boom', () => new HttpResponse('<html>oops</html>', { status: 502 })),
    );
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await engine.send(req('http://agent.test/rpc', { method: 'POST', body: '{}' }));
      expect(JSON.parse(await res.text())).toEqual({ hello: 'msw' });
      const stream = await engine.send(req('http://agent.test/stream'));
      const got = [];
      for await (const e of sseEvents(stream)) got.push(e);
      expect(got).toEqual([{ id: '3', data: 'x' }]);
      const boom = await engine.send(req('http://agent.test/boom'));
      expect(boom.status).toBe(502);
      expect(await readErrorBody(boom)).toBe('<html>oops</html>');
    } finally {
      msw.close();
    }
  });

  it('uses a custom fetch function', async () => {
    const calls: string[] = [];
    const engine = createEngine({
      fetch: (input) => {
        calls.push(String(input));
        return Promise.resolve(new Response('hi'));
      },
    });
    expect(await (await engine.send(req('http://x.test/a'))).text()).toBe('hi');
    expect(calls).toEqual(['http://x.test/a']);
  });
});
