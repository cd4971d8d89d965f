import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failFirst, httpError, jsonRpcError, mockAgent, replyText, reset, stream } from 'a2a-resilient/mocks';
import { readSse, rpc, timedSse, v03Msg, v1Msg } from './helpers.js';

const v1 = mockAgent({ name: 'Alpha', version: '1.0', binding: 'JSONRPC' });
const v03 = mockAgent({ name: 'beta', version: '0.3', binding: 'HTTP+JSON', baseUrl: 'http://beta.agents.test/a2a' });
const server = setupServer(...v1.handlers, ...v03.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('mock agents through msw setupServer + global fetch', () => {
  it('serves the card and answers at the default msw host', async () => {
    expect(v1.url).toBe('http://alpha.agents.test');
    const card = await (await fetch('http://alpha.agents.test/.well-known/agent-card.json')).json();
    expect(card).toMatchObject({ supportedInterfaces: [{ url: 'http://alpha.agents.test', protocolBinding: 'JSONRPC' }] });
    expect(await rpc('http://alpha.agents.test', 'SendMessage', v1Msg('hi'), { 'a2a-version': '1.0' })).toMatchObject({ result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } } });
  });

  it('honours a baseUrl with a path (v0.3 REST under /v1)', async () => {
    expect(v03.card).toMatchObject({ url: 'http://beta.agents.test/a2a', preferredTransport: 'HTTP+JSON' });
    const res = await fetch('http://beta.agents.test/a2a/v1/message:send', { method: 'POST', body: JSON.stringify(v03Msg('x')) });
    expect(await res.json()).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('failFirst + httpError + jsonRpcError + reset behave the same without sockets', async () => {
    v1.reply(failFirst(1, httpError(502), replyText('ok')), failFirst(0, reset(), replyText('unused')));
    const first = await fetch('http://alpha.agents.test', { method: 'POST', headers: { 'a2a-version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: v1Msg('x') }) });
    expect(first.status).toBe(502);
    await first.text();
    expect(await rpc('http://alpha.agents.test', 'SendMessage', v1Msg('x'), { 'a2a-version': '1.0' })).toMatchObject({ result: { message: { parts: [{ text: 'unused' }] } } });
    v1.reply(reset(), jsonRpcError(-32001, 'gone'));
    await expect(rpc('http://alpha.agents.test', 'SendMessage', v1Msg('x'), { 'a2a-version': '1.0' })).rejects.toThrow();
    expect(await rpc('http://alpha.agents.test', 'SendMessage', v1Msg('x'), { 'a2a-version': '1.0' })).toMatchObject({ error: { code: -32001, message: 'gone' } });
  });

  it('streams SSE, and a drop errors the fetch body after the delivered events', async () => {
    const ok = await fetch('http://beta.agents.test/a2a/v1/message:stream', { method: 'POST', body: JSON.stringify(v03Msg('s')) });
    expect((await readSse(ok)).length).toBe(4);
    v03.reply(stream([{ status: 'working' }, { status: 'completed' }], { dropAfter: 1 }));
    const dropped = await fetch('http://beta.agents.test/a2a/v1/message:stream', { method: 'POST', body: JSON.stringify(v03Msg('s')) });
    const { frames, error } = await timedSse(dropped);
    expect(frames).toHaveLength(1);
    // The drop fails the body after the delivered event instead of ending it cleanly.
    expect(error).toBeInstanceOf(Error);
  });
});
