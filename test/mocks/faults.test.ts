import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { delay, failFirst, hang, httpError, mockAgent, replyText, reset, stream, type MockServer } from 'a2a-resilient/mocks';
import { rpc, timedSse, v1Msg } from './helpers.js';

const V1 = { 'a2a-version': '1.0' };
const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function v1Agent(name: string) {
  const agent = mockAgent({ name, version: '1.0', binding: 'JSONRPC' });
  const server = await agent.listen();
  servers.push(server);
  return { agent, server };
}

const streamCall = (url: string, signal?: AbortSignal): Promise<Response> =>
  fetch(url, { method: 'POST', headers: V1, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: v1Msg('s') }), ...(signal ? { signal } : {}) });

describe('mock faults on the loopback server', () => {
  it('SSE events flow one by one with the configured gap (not buffered)', async () => {
    const { agent, server } = await v1Agent('gappy');
    agent.reply(stream([{ status: 'working' }, { artifact: 'a' }, { status: 'completed' }], { gapMs: 150 }));
    const started = Date.now();
    const { frames, error } = await timedSse(await streamCall(server.url));
    expect(error).toBeUndefined();
    expect(frames).toHaveLength(4);
    const gaps = frames.slice(1).map((f, i) => f.at - (frames[i]?.at ?? started));
    // Each frame arrives on its own (a late one shortens the next gap on a loaded machine, but none
    // arrives together with the one before), and the three gaps of 150 ms add up: counted from the
    // request, since a first frame read late on a loaded machine shortens the span from it.
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(40);
    expect((frames.at(-1)?.at ?? 0) - started).toBeGreaterThanOrEqual(440);
  });

  it('dropAfter destroys the socket mid-stream after N events', async () => {
    const { agent, server } = await v1Agent('droppy');
    agent.reply(stream([{ status: 'working' }, { artifact: 'a' }, { status: 'completed' }], { dropAfter: 2 }));
    const { frames, error } = await timedSse(await streamCall(server.url));
    expect(frames).toHaveLength(2);
    expect(error).toBeInstanceOf(Error);
  });

  it('idleAfter keeps the stream open and silent until the client gives up', async () => {
    const { agent, server } = await v1Agent('idle');
    agent.reply(stream([{ status: 'working' }, { status: 'completed' }], { idleAfter: 1 }));
    const ac = new AbortController();
    const res = await streamCall(server.url, ac.signal);
    const t = setTimeout(() => ac.abort(), 300);
    const { frames, error } = await timedSse(res);
    clearTimeout(t);
    expect(frames).toHaveLength(1);
    // Silent until the client aborted: the body ends with the abort, not with a clean end.
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('hang never answers; a client abort reaches the scenario and frees the request', async () => {
    const { agent, server } = await v1Agent('hangs');
    let seen: AbortSignal | undefined;
    agent.on('sendMessage', (ctx) => {
      seen = ctx.signal;
      return hang()(ctx);
    });
    const ac = new AbortController();
    const call = fetch(server.url, { method: 'POST', headers: V1, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: v1Msg('y') }), signal: ac.signal });
    setTimeout(() => ac.abort(), 150);
    const started = Date.now();
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    for (let i = 0; i < 50 && !seen?.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen?.aborted).toBe(true);
  });

  it('close() destroys a hanging request promptly', async () => {
    const { agent, server } = await v1Agent('closer');
    agent.on('sendMessage', hang());
    const pending = new Promise<string>((resolve) => {
      const req = httpRequest(`${server.url}/`, { method: 'POST', headers: { ...V1, 'content-type': 'application/json' } }, () => resolve('answered'));
      req.on('error', (e) => resolve(`error:${(e as NodeJS.ErrnoException).code ?? e.message}`));
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: v1Msg('x') }));
    });
    // The agent has the request (however long a loaded machine takes to deliver it).
    await vi.waitFor(() => expect(agent.calls).toHaveLength(1), { timeout: 5_000, interval: 10 });
    const started = Date.now();
    await servers.pop()?.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBe('error:ECONNRESET');
  });

  it('reset destroys the connection without an answer', async () => {
    const { agent, server } = await v1Agent('resets');
    agent.reply(reset());
    await expect(rpc(server.url, 'SendMessage', v1Msg('x'), V1)).rejects.toThrow(/fetch failed/);
    expect(await rpc(server.url, 'SendMessage', v1Msg('x'), V1)).toMatchObject({ result: { task: expect.anything() } });
  });

  it('failFirst(n) fails exactly n calls then succeeds; attempts are recorded with the same messageId', async () => {
    const { agent, server } = await v1Agent('flaky');
    agent.on('sendMessage', failFirst(2, httpError(503, { retryAfter: 1 }), replyText('finally')));
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(server.url, { method: 'POST', headers: V1, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'SendMessage', params: v1Msg('x', 'msg-42') }) });
      statuses.push(res.status);
      if (res.status === 200) expect(await res.json()).toMatchObject({ result: { message: { parts: [{ text: 'finally' }] } } });
      else await res.text();
    }
    expect(statuses).toEqual([503, 503, 200]);
    expect(agent.callsOf('sendMessage').map((c) => (c.params as { message: { messageId: string } }).message.messageId)).toEqual(['msg-42', 'msg-42', 'msg-42']);
  });

  it('delay(ms) answers late', async () => {
    const { agent, server } = await v1Agent('slow');
    agent.reply(delay(200, replyText('late')));
    const started = Date.now();
    expect(await rpc(server.url, 'SendMessage', v1Msg('x'), V1)).toMatchObject({ result: { message: { parts: [{ text: 'late' }] } } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });
});
