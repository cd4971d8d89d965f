/**
 * `agent.listen({ cors: true })`: a browser page on another origin can discover and call the mock
 * (preflights answered, every response readable, Retry-After exposed); without it no CORS header is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpError, mockAgent } from 'a2a-resilient/mocks';

const closes: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closes.splice(0).map((c) => c()));
});

async function listening(cors: boolean) {
  const agent = mockAgent({ name: 'cors-agent', version: '1.0', binding: 'JSONRPC' });
  const server = await agent.listen({ cors });
  closes.push(server.close);
  return { agent, url: server.url };
}

describe('mock agent CORS', () => {
  it('answers a preflight with the method and headers asked for', async () => {
    const { url, agent } = await listening(true);
    const res = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,a2a-version' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type,a2a-version');
    expect(agent.calls).toHaveLength(0);
  });

  it('lets any origin read the card and a 503 with its Retry-After', async () => {
    const { url, agent } = await listening(true);
    const card = await fetch(`${url}/.well-known/agent-card.json`, { headers: { origin: 'http://127.0.0.1:1' } });
    expect(card.headers.get('access-control-allow-origin')).toBe('*');
    expect(await card.json()).toMatchObject({ name: 'cors-agent' });
    agent.on('sendMessage', httpError(503, { retryAfter: 2 }));
    const busy = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { role: 'ROLE_USER', messageId: 'm1', parts: [{ text: 'x' }] } } }) });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(busy.headers.get('access-control-expose-headers')).toBe('*');
    await busy.text();
  });

  it('sends no CORS header unless asked', async () => {
    const { url } = await listening(false);
    const card = await fetch(`${url}/.well-known/agent-card.json`);
    expect(card.headers.get('access-control-allow-origin')).toBeNull();
    await card.text();
  });
});
