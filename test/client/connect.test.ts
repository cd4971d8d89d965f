import { describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import { mockAgent } from '../../mocks/index.js';
import { WAYS, rejection, uniqueName, useHarness, type RawRequest, type RawResponse } from './harness.js';

const h = useHarness();

const CARD_PATH = '/.well-known/agent-card.json';
const LEGACY_PATH = '/.well-known/agent.json';

/** A minimal valid v1.0 card pointing at `url`. */
function v1Card(name: string, url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description: 'a card served by the test',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    ...extra,
  };
}

const json = (body: unknown, headers: Record<string, string> = {}): RawResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const notFound: RawResponse = { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };

/** A card endpoint answering `answer` for the card path and 404 elsewhere, recording every request. */
function cardServer(answer: (req: RawRequest) => RawResponse, path = CARD_PATH): { seen: RawRequest[]; handler: (req: RawRequest) => RawResponse } {
  const seen: RawRequest[] = [];
  return {
    seen,
    handler: (req) => {
      seen.push(req);
      return req.method === 'GET' && req.path === path ? answer(req) : notFound;
    },
  };
}

describe.each(WAYS)('A2AClient.connect (%s)', (way) => {
  it('reads the card at /.well-known/agent-card.json and negotiates its interface', async () => {
    const name = uniqueName('card');
    const { seen, handler } = cardServer(() => json(v1Card(name, 'http://127.0.0.1:1/rpc')));
    const served = await h.raw(way, handler);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${CARD_PATH}`]);
    expect(client.name).toBe(name);
    expect(client.card.description).toBe('a card served by the test');
    expect(client.protocol).toEqual({ version: '1.0', binding: 'JSONRPC', url: 'http://127.0.0.1:1/rpc' });
  });

  it('connects to a mock agent of each version and binding', async () => {
    for (const [version, binding] of [['1.0', 'HTTP+JSON'], ['0.3', 'JSONRPC']] as const) {
      const agent = mockAgent({ name: uniqueName('connect'), version, binding });
      const served = await h.agent(way, agent);
      const client = await A2AClient.connect(served.url, served.options);
      h.defer(() => client.close());
      expect(client.protocol).toEqual({ version, binding, url: served.url });
    }
  });

  it('falls back to /.well-known/agent.json when the first path is 404', async () => {
    const name = uniqueName('legacy');
    const { seen, handler } = cardServer(() => json(v1Card(name, 'http://127.0.0.1:1/')), LEGACY_PATH);
    const served = await h.raw(way, handler);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    expect(seen.map((r) => r.path)).toEqual([CARD_PATH, LEGACY_PATH]);
    expect(client.name).toBe(name);
  });

  it('fails with kind card (field url, status 404) when neither path has a card', async () => {
    const { seen, handler } = cardServer(() => notFound);
    const served = await h.raw(way, handler);
    const error = await rejection(A2AClient.connect(served.url, served.options));
    expect(isA2AClientError(error) ? [error.kind, error.field, error.status] : error).toEqual(['card', 'url', 404]);
    expect(seen.map((r) => r.path)).toEqual([CARD_PATH, LEGACY_PATH]);
  });

  it.each([
    ['a missing protocolVersion', { supportedInterfaces: [{ url: 'http://127.0.0.1:1/', protocolBinding: 'JSONRPC' }] }, 'supportedInterfaces.0.protocolVersion'],
    ['a numeric name', { name: 42 }, 'name'],
    ['an empty interface list', { supportedInterfaces: [] }, 'supportedInterfaces'],
    ['no interface at all', { supportedInterfaces: undefined }, 'supportedInterfaces'],
  ])('fails with kind card naming the field for %s', async (_label, patch, field) => {
    const { handler } = cardServer(() => json({ ...v1Card(uniqueName('bad'), 'http://127.0.0.1:1/'), ...patch }));
    const served = await h.raw(way, handler);
    const error = await rejection(A2AClient.connect(served.url, served.options));
    expect(isA2AClientError(error) ? [error.kind, error.field] : error).toEqual(['card', field]);
  });

  it('fails with kind card when the card is not JSON', async () => {
    const { handler } = cardServer(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' }));
    const served = await h.raw(way, handler);
    const error = await rejection(A2AClient.connect(served.url, served.options));
    expect(isA2AClientError(error) ? [error.kind, error.field] : error).toEqual(['card', '$']);
  });

  it('fails with kind unsupported when no interface is usable', async () => {
    const name = uniqueName('grpc');
    const card = v1Card(name, 'http://127.0.0.1:1/', {
      supportedInterfaces: [
        { url: 'http://127.0.0.1:1/', protocolBinding: 'WEBSOCKET', protocolVersion: '1.0' },
        { url: 'http://127.0.0.1:1/', protocolBinding: 'JSONRPC', protocolVersion: '2.0' },
      ],
    });
    const { handler } = cardServer(() => json(card));
    const served = await h.raw(way, handler);
    const error = await rejection(A2AClient.connect(served.url, served.options));
    expect(isA2AClientError(error) ? [error.kind, error.agent] : error).toEqual(['unsupported', name]);
  });

  it('options.protocol forces a version and binding among the card interfaces', async () => {
    const v1 = mockAgent({ name: uniqueName('force-v1'), version: '1.0', binding: 'JSONRPC' });
    const v03 = mockAgent({ name: uniqueName('force-v03'), version: '0.3', binding: 'HTTP+JSON' });
    const v1Url = (await h.agent(way, v1)).url;
    const v03Url = (await h.agent(way, v03)).url;
    // A hybrid card: v1.0 JSONRPC preferred, v0.3 REST as the legacy interface.
    const card = {
      ...v1Card(uniqueName('hybrid'), v1Url),
      protocolVersion: '0.3.0',
      url: v03Url,
      preferredTransport: 'HTTP+JSON',
    };
    const { handler } = cardServer(() => json(card));
    const served = await h.raw(way, handler);

    const preferred = await A2AClient.connect(served.url, served.options);
    h.defer(() => preferred.close());
    expect(preferred.protocol).toEqual({ version: '1.0', binding: 'JSONRPC', url: v1Url });

    const forced = await A2AClient.connect(served.url, { ...served.options, protocol: { version: '0.3' } });
    h.defer(() => forced.close());
    expect(forced.protocol).toEqual({ version: '0.3', binding: 'HTTP+JSON', url: v03Url });
    await forced.sendMessage({ message: { parts: [{ kind: 'text', text: 'legacy' }] } });
    expect(v03.calls.map((c) => c.wireMethod)).toEqual(['POST /v1/message:send']);
    expect(v1.calls).toEqual([]);

    const byBinding = await A2AClient.connect(served.url, { ...served.options, protocol: { binding: 'HTTP+JSON' } });
    h.defer(() => byBinding.close());
    expect(byBinding.protocol.version).toBe('0.3');

    const impossible = await rejection(A2AClient.connect(served.url, { ...served.options, protocol: { version: '1.0', binding: 'HTTP+JSON' } }));
    expect(isA2AClientError(impossible) ? impossible.kind : impossible).toBe('unsupported');
  });
});

describe.each(WAYS)('A2AClient.refreshCard (%s)', (way) => {
  it('makes no request while Cache-Control max-age says the card is fresh', async () => {
    const name = uniqueName('fresh');
    const { seen, handler } = cardServer(() => json(v1Card(name, 'http://127.0.0.1:1/'), { 'cache-control': 'public, max-age=60' }));
    const served = await h.raw(way, handler);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    expect(seen).toHaveLength(1);
    const card = await client.refreshCard();
    await client.refreshCard();
    expect(seen).toHaveLength(1);
    expect(card).toBe(client.card);
  });

  it('asks again once max-age has run out', async () => {
    const name = uniqueName('stale');
    const { seen, handler } = cardServer(() => json(v1Card(name, 'http://127.0.0.1:1/'), { 'cache-control': 'max-age=1' }));
    const served = await h.raw(way, handler);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    await client.refreshCard();
    expect(seen).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await client.refreshCard();
    expect(seen).toHaveLength(2);
    await client.refreshCard();
    expect(seen).toHaveLength(2);
  });

  it('asks again when the card may not be cached, and keeps it on 304 Not Modified (ETag)', async () => {
    const name = uniqueName('etag');
    let etag = '"v1"';
    let description = 'first';
    const { seen, handler } = cardServer((req) =>
      req.headers['if-none-match'] === etag
        ? { status: 304, headers: { etag } }
        : json(v1Card(name, 'http://127.0.0.1:1/', { description }), { etag, 'cache-control': 'no-cache' }),
    );
    const served = await h.raw(way, handler);
    const client = await A2AClient.connect(served.url, served.options);
    h.defer(() => client.close());
    expect(seen.map((r) => r.headers['if-none-match'])).toEqual([undefined]);

    const kept = await client.refreshCard();
    expect(seen.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"']);
    expect(kept).toBe(client.card);
    expect(kept.description).toBe('first');

    etag = '"v2"';
    description = 'second';
    const changed = await client.refreshCard();
    expect(seen.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"', '"v1"']);
    expect(changed.description).toBe('second');
    expect(changed.name).toBe(name);

    const again = await client.refreshCard();
    expect(seen.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"', '"v1"', '"v2"']);
    expect(again.description).toBe('second');
    expect(seen.every((r) => r.path === CARD_PATH)).toBe(true);
  });
});
