/**
 * Signed agent cards (A2A spec 8.4) end to end: cards signed with freshly generated ES256 and RS256
 * keys, served by a real loopback agent, verified by connect() and refreshCard() — and tampered with:
 * a changed field, reordered keys (still valid: JCS), an unknown kid, a wrong or refused algorithm, a
 * missing signature with required true and false. Then the official SDK's own signer.
 */
import canonicalize from 'canonicalize';
import { exportJWK, FlattenedSign, generateKeyPair, type CryptoKey } from 'jose';
import { generateAgentCardSignature } from '@a2a-js/sdk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, verifyAgentCard, type CardJwk, type CardSignatureOptions } from '../../src/index.js';
import { recordingAgent, v1Card, type RecordingAgent } from '../helpers/recording-agent.js';
import { startOfficialServer } from '../helpers/official-server.js';
import { withoutEmpty } from '../../src/protocol/card-canonical.js';

interface Signer {
  alg: 'ES256' | 'RS256';
  kid: string;
  privateKey: CryptoKey;
  jwk: CardJwk;
}

async function signer(alg: 'ES256' | 'RS256', kid: string): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg } as CardJwk };
}

/** Signs `card` (without its signatures) as spec 8.4.2 says: JWS over the JCS form, detached. */
async function sign(card: Record<string, unknown>, s: Signer, header: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const { signatures: _, ...unsigned } = card;
  const payload = new TextEncoder().encode(canonicalize(unsigned));
  const jws = await new FlattenedSign(payload).setProtectedHeader({ alg: s.alg, typ: 'JOSE', kid: s.kid, ...header }).sign(s.privateKey);
  const previous = Array.isArray(card['signatures']) ? (card['signatures'] as unknown[]) : [];
  return { ...card, signatures: [...previous, { protected: jws.protected, signature: jws.signature }] };
}

let es: Signer;
let rs: Signer;
let other: Signer;
beforeAll(async () => {
  [es, rs, other] = await Promise.all([signer('ES256', 'es-key-1'), signer('RS256', 'rs-key-1'), signer('ES256', 'es-key-2')]);
});

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/** Serves the card `make(url)` returns (as text, so key order is the test's). */
async function serveCard(make: (url: string) => Promise<string> | string): Promise<RecordingAgent> {
  const agent = await recordingAgent(async (req, url) => (req.path.startsWith('/.well-known/') ? { headers: { 'content-type': 'application/json' }, body: await make(url) } : { status: 404 }));
  agents.push(agent);
  return agent;
}

async function connect(agent: RecordingAgent, cardSignature: CardSignatureOptions): Promise<A2AClient> {
  const client = await A2AClient.connect(agent.url, { cardSignature, retry: { maxAttempts: 3, baseDelayMs: 1 } });
  clients.push(client);
  return client;
}

async function refused(agent: RecordingAgent, cardSignature: CardSignatureOptions) {
  const error = await connect(agent, cardSignature).then(() => undefined, (e: unknown) => e);
  if (!isA2AClientError(error)) throw new Error(`expected a card error, got ${String(error)}`);
  expect(error.kind).toBe('card');
  expect(error.field).toMatch(/^signatures/);
  // Verification failures are final: the card was fetched once.
  expect(agent.requests).toHaveLength(1);
  return error;
}

const signedCard = async (url: string, ...signers: Signer[]): Promise<Record<string, unknown>> => {
  let card: Record<string, unknown> = v1Card(url, 'signed-agent', 'JSONRPC', { provider: { organization: 'Example', url: 'https://example.com' } });
  for (const s of signers) card = await sign(card, s);
  return card;
};

describe.each(['ES256', 'RS256'] as const)('a card signed with %s', (alg) => {
  const key = (): Signer => (alg === 'ES256' ? es : rs);

  it('verifies on connect(), with the key given as a JWK or by a resolver', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await signedCard(url, key())));
    const client = await connect(agent, { keys: [other.jwk, key().jwk] });
    expect(client.card.signatures).toHaveLength(1);
    const seen: Array<[string, string | undefined]> = [];
    await connect(agent, {
      keys: async (kid, jku) => {
        seen.push([kid, jku]);
        return kid === key().kid ? key().jwk : undefined;
      },
    });
    expect(seen).toEqual([[key().kid, undefined]]);
  });

  it('still verifies with its members served in another order (JCS)', async () => {
    const agent = await serveCard(async (url) => {
      const card = await signedCard(url, key());
      const reversed = Object.fromEntries(Object.entries(card).reverse().map(([k, v]) => [k, v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v]));
      const text = JSON.stringify(reversed, null, 3);
      expect(text.indexOf('"signatures"')).toBeLessThan(text.indexOf('"name"'));
      return text;
    });
    await expect(connect(agent, { keys: [key().jwk] })).resolves.toBeInstanceOf(A2AClient);
  });

  it('a changed field fails: the signature does not match', async () => {
    const agent = await serveCard(async (url) => JSON.stringify({ ...(await signedCard(url, key())), description: 'now pointing elsewhere' }));
    const error = await refused(agent, { keys: [key().jwk] });
    expect(error.message).toContain('signature 0: the signature does not match the card');
    expect(error.issues).toEqual([{ path: 'signatures.0', message: 'the signature does not match the card (invalid signature or changed card)' }]);
  });
});

describe('hostile signed cards', () => {
  it('a value canonical JSON cannot hold (a lone surrogate) is a card error, not a crash', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await signedCard(url, es)).replace('"signed-agent"', '"signed-agent\\ud800"'));
    const error = await refused(agent, { keys: [es.jwk] });
    expect(error.message).toContain('canonical JSON (RFC 8785) cannot represent');
  });

  it('an empty security requirement added to a card signed without empty values is not taken from the served card', async () => {
    const agent = await serveCard(async (url) => {
      // Signed as the official signers do: over the card with its empty values removed.
      const clean = withoutEmpty(v1Card(url, 'signed-agent', 'JSONRPC')) as Record<string, unknown>;
      const signed = await sign(clean, es);
      // Then someone in between adds an "anonymous" alternative, which the cleaned form does not see.
      return JSON.stringify({ ...signed, securityRequirements: [{ schemes: {} }] });
    });
    const client = await connect(agent, { keys: [es.jwk] });
    // The card in use is the one that was signed: no anonymous alternative slipped in.
    expect(client.card.security ?? []).toEqual([]);
    expect((client.card.raw as Record<string, unknown>)['securityRequirements']).toBeUndefined();
  });

  it('thousands of signatures naming unknown keys: at most 16 are looked at, each key asked for once', async () => {
    const agent = await serveCard(async (url) => {
      const card = await signedCard(url, other);
      const one = (card['signatures'] as unknown[])[0];
      return JSON.stringify({ ...card, signatures: Array.from({ length: 5_000 }, () => one) });
    });
    let asked = 0;
    const error = await refused(agent, {
      keys: () => {
        asked++;
        return undefined;
      },
    });
    expect(asked).toBe(1);
    expect(error.issues).toHaveLength(16);
    expect(error.message).toContain('4984 more signatures not looked at');
    expect(error.message.length).toBeLessThan(2_000);
  });
});

describe('refused signatures name the reason', () => {
  it('an unknown kid', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await signedCard(url, other)));
    const error = await refused(agent, { keys: [es.jwk, rs.jwk] });
    expect(error.message).toContain('key "es-key-2" is unknown');
  });

  it('a key whose alg differs from the signature’s', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await signedCard(url, es)));
    const error = await refused(agent, { keys: [{ ...es.jwk, alg: 'ES384' }] });
    expect(error.message).toContain('key "es-key-1" is for ES384, the signature says ES256');
  });

  it('a key of another type than the algorithm needs', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await signedCard(url, es)));
    const error = await refused(agent, { keys: [{ ...rs.jwk, kid: 'es-key-1', alg: undefined } as CardJwk] });
    expect(error.message).toMatch(/key "es-key-1" cannot verify ES256/);
  });

  it.each([
    ['none', { alg: 'none', kid: 'es-key-1' }],
    ['HS256', { alg: 'HS256', kid: 'es-key-1' }],
  ])('algorithm %s is never accepted', async (_, header) => {
    const agent = await serveCard(async (url) => {
      const card = await signedCard(url, es);
      const [sig] = card['signatures'] as Array<{ protected: string; signature: string }>;
      return JSON.stringify({ ...card, signatures: [{ ...sig, protected: Buffer.from(JSON.stringify(header)).toString('base64url') }] });
    });
    const error = await refused(agent, { keys: [es.jwk] });
    expect(error.message).toContain(`algorithm "${header.alg}" is not accepted`);
  });

  it('a resolver that throws', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await signedCard(url, es)));
    const error = await refused(agent, {
      keys: async () => {
        throw new Error('key server down');
      },
    });
    expect(error.message).toContain('looking up key "es-key-1" failed: key server down');
  });

  it('with several signatures (key rotation) one good one is enough; all bad ones are listed', async () => {
    const rotated = await serveCard(async (url) => JSON.stringify(await signedCard(url, other, rs)));
    await expect(connect(rotated, { keys: [rs.jwk] })).resolves.toBeInstanceOf(A2AClient);
    const error = await refused(await serveCard(async (url) => JSON.stringify(await signedCard(url, other, es))), { keys: [rs.jwk] });
    expect(error.issues?.map((i) => i.message)).toEqual(['key "es-key-2" is unknown', 'key "es-key-1" is unknown']);
  });

  it('the resolver gets the header’s jku', async () => {
    const agent = await serveCard(async (url) => JSON.stringify(await sign(v1Card(url, 'jku'), es, { jku: 'https://keys.example/jwks.json' })));
    const seen: unknown[] = [];
    await connect(agent, { keys: (kid, jku) => (seen.push([kid, jku]), es.jwk) });
    expect(seen).toEqual([['es-key-1', 'https://keys.example/jwks.json']]);
  });
});

describe('unsigned cards', () => {
  it('fail when a signature is required (the default), pass with required: false', async () => {
    const agent = await serveCard((url) => JSON.stringify(v1Card(url, 'unsigned')));
    const error = await refused(agent, { keys: [es.jwk] });
    expect(error.message).toContain('is not signed');
    await expect(connect(agent, { keys: [es.jwk], required: false })).resolves.toBeInstanceOf(A2AClient);
  });

  it('required: false still refuses a signature that does not verify', async () => {
    const agent = await serveCard(async (url) => JSON.stringify({ ...(await signedCard(url, es)), name: 'impostor' }));
    await refused(agent, { keys: [es.jwk], required: false });
  });
});

describe('refreshCard() and verifyAgentCard()', () => {
  it('refreshCard() verifies the card it fetches again', async () => {
    let tamper = false;
    const agent = await serveCard(async (url) => JSON.stringify({ ...(await signedCard(url, es)), ...(tamper ? { version: '6.6.6' } : {}) }));
    const client = await connect(agent, { keys: [es.jwk] });
    tamper = true;
    const error = await client.refreshCard().then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.field]).toEqual(['card', 'signatures.0']);
  });

  it('verifyAgentCard() checks a card you already have (for new A2AClient(card))', async () => {
    const card = await signedCard('http://127.0.0.1:9', rs);
    await expect(verifyAgentCard(card, { keys: [rs.jwk] })).resolves.toMatchObject({ name: card.name });
    const client = new A2AClient(card);
    await expect(verifyAgentCard(client.card, { keys: [rs.jwk] })).resolves.toBe(client.card);
    await client.close();
    await expect(verifyAgentCard({ ...card, name: 'x' }, { keys: [rs.jwk] })).rejects.toMatchObject({ kind: 'card' });
  });
});

describe.each([true, false])('signed by the official @a2a-js/sdk signer (legacyCompat %s)', (legacyCompat) => {
  it.each(['ES256', 'RS256'] as const)('%s verifies', async (alg) => {
    const s = alg === 'ES256' ? es : rs;
    const server = await startOfficialServer({ legacyCompat, card: (card) => generateAgentCardSignature(s.privateKey, { alg, kid: s.kid, typ: 'JOSE' })(card) });
    try {
      const client = await A2AClient.connect(server.baseUrl, { cardSignature: { keys: [s.jwk] } });
      expect(client.card.name).toBe('official-interop-agent');
      await client.close();
      const forged = await startOfficialServer({ legacyCompat, card: async (card) => ({ ...(await generateAgentCardSignature(s.privateKey, { alg, kid: s.kid, typ: 'JOSE' })(card)), description: 'forged' }) });
      try {
        await expect(A2AClient.connect(forged.baseUrl, { cardSignature: { keys: [s.jwk] } })).rejects.toMatchObject({ kind: 'card', field: 'signatures.0' });
      } finally {
        await forged.close();
      }
    } finally {
      await server.close();
    }
  });
});
