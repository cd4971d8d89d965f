import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { parseAgentCard, selectInterface } from '../../src/protocol/card.js';
import { fixture } from './fixtures.js';

function cardError(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isA2AClientError(e)) return e;
    throw e;
  }
  throw new Error('expected a throw');
}

const v03Only = {
  name: 'legacy',
  url: 'http://127.0.0.1:9/rpc',
  protocolVersion: '0.3.0',
  preferredTransport: 'HTTP+JSON',
  additionalInterfaces: [
    { url: 'http://127.0.0.1:9/rpc', transport: 'HTTP+JSON' },
    { url: 'http://127.0.0.1:9/jsonrpc', transport: 'JSONRPC' },
    { url: 'http://127.0.0.1:9/grpc', transport: 'GRPC' },
  ],
  capabilities: { streaming: true },
  supportsAuthenticatedExtendedCard: true,
  skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
};

describe('parseAgentCard', () => {
  it('keeps v1.0 supportedInterfaces in order', () => {
    const card = parseAgentCard(fixture('card-v1').response.body);
    expect(card.name).toBe('official-interop-agent');
    expect(card.interfaces.map((i) => `${i.binding} ${i.version}`)).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
    expect(card.capabilities).toMatchObject({ streaming: true, extendedAgentCard: false });
    expect(card.skills[0]).toMatchObject({ id: 'script', tags: ['test'] });
  });

  it('reads a v0.3 card: url + preferredTransport first, then additionalInterfaces (deduplicated)', () => {
    const card = parseAgentCard(v03Only);
    expect(card.interfaces).toEqual([
      { url: 'http://127.0.0.1:9/rpc', binding: 'HTTP+JSON', version: '0.3' },
      { url: 'http://127.0.0.1:9/jsonrpc', binding: 'JSONRPC', version: '0.3' },
      { url: 'http://127.0.0.1:9/grpc', binding: 'GRPC', version: '0.3' },
    ]);
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect(card.raw).toBe(v03Only);
  });

  it('reads the hybrid card the official server sends without a version header', () => {
    const card = parseAgentCard(fixture('card-v03').response.body);
    expect(card.interfaces.map((i) => `${i.binding} ${i.version}`)).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
  });

  it('names the bad field of a broken card', () => {
    const e = cardError(() => parseAgentCard({ name: 'x', supportedInterfaces: [{ url: 'http://a', protocolBinding: 'JSONRPC' }] }));
    expect(e.kind).toBe('card');
    expect(e.field).toBe('supportedInterfaces.0.protocolVersion');
    expect(cardError(() => parseAgentCard({ name: 'x' })).field).toBe('supportedInterfaces');
    expect(cardError(() => parseAgentCard({ url: 'http://a' })).field).toBe('name');
    expect(cardError(() => parseAgentCard('<html>')).kind).toBe('card');
  });
});

describe('selectInterface', () => {
  const v1 = parseAgentCard(fixture('card-v1').response.body);

  it('takes the first supported interface in card order', () => {
    expect(selectInterface(v1)).toEqual({ version: '1.0', binding: 'JSONRPC', url: 'http://127.0.0.1:41241/a2a/jsonrpc' });
  });

  it('honours a version and binding preference', () => {
    expect(selectInterface(v1, { binding: 'HTTP+JSON' })).toMatchObject({ version: '1.0', url: 'http://127.0.0.1:41241/a2a/rest' });
    expect(selectInterface(v1, { version: '0.3', binding: 'HTTP+JSON' })).toMatchObject({ version: '0.3', binding: 'HTTP+JSON' });
  });

  it('skips bindings the SDK does not speak', () => {
    const card = parseAgentCard({ ...v03Only, preferredTransport: 'WEBSOCKET', url: 'http://127.0.0.1:9/ws', additionalInterfaces: [{ url: 'http://127.0.0.1:9/j', transport: 'JSONRPC' }] });
    expect(selectInterface(card)).toEqual({ version: '0.3', binding: 'JSONRPC', url: 'http://127.0.0.1:9/j' });
  });

  it('selects GRPC in the card order, and passes it over when told to skip it', () => {
    const card = parseAgentCard({ ...v03Only, preferredTransport: 'GRPC', url: '127.0.0.1:9', additionalInterfaces: [{ url: 'http://127.0.0.1:9/j', transport: 'JSONRPC' }] });
    expect(selectInterface(card)).toEqual({ version: '0.3', binding: 'GRPC', url: '127.0.0.1:9' });
    expect(selectInterface(card, { skip: 'GRPC' })).toEqual({ version: '0.3', binding: 'JSONRPC', url: 'http://127.0.0.1:9/j' });
  });

  it('fails with kind unsupported when nothing matches', () => {
    const e = cardError(() => selectInterface(parseAgentCard(v03Only), { version: '1.0' }));
    expect(e.kind).toBe('unsupported');
    const unknownOnly = parseAgentCard({ name: 'g', supportedInterfaces: [{ url: 'http://a', protocolBinding: 'WEBSOCKET', protocolVersion: '1.0' }] });
    expect(cardError(() => selectInterface(unknownOnly)).kind).toBe('unsupported');
  });
});
