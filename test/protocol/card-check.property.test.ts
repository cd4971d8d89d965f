import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isV03Card, isV1Card } from '../../src/protocol/card-check.js';
import { parseAgentCard } from '../../src/protocol/card.js';
import { V03AgentCardSchema } from '../../src/protocol/v03/schemas.js';
import { V1AgentCardSchema } from '../../src/protocol/v1/schemas.js';
import { mutated, weirdJson, type Json } from './malformed.js';

const scopes = { 'tasks:read': 'read tasks', 'tasks:write': 'write tasks' };
const fixture = (name: string): Json =>
  (JSON.parse(readFileSync(fileURLToPath(new URL(`../interop/fixtures/${name}`, import.meta.url)), 'utf8')) as { response: { body: Json } }).response.body;

/** Cards that use every field the schemas know, of both versions and both at once. */
const V1_FULL: Json = {
  name: 'full-v1',
  description: 'every field',
  version: '1.2.3',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:9/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 't1' },
    { url: 'http://127.0.0.1:9/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', extra: { x: [1] } },
  ],
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: true, extensions: [{ uri: 'urn:x', required: true }, { uri: 'urn:y' }] },
  skills: [{ id: 's', name: 'skill', description: 'd', tags: ['a'], examples: ['e'], securityRequirements: [{ schemes: { bearer: { list: ['tasks:read'] } } }], security: [{ key: [] }] }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  provider: { organization: 'org', url: 'https://org.example' },
  securitySchemes: {
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: 'k' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
    oauth: { oauth2SecurityScheme: { flows: { authorizationCode: { authorizationUrl: 'https://a/authorize', tokenUrl: 'https://a/token', refreshUrl: '', scopes, pkceRequired: true }, implicit: { scopes }, password: {} }, oauth2MetadataUrl: 'https://a/meta' } },
    device: { oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: 'https://a/device', tokenUrl: 'https://a/token', scopes } } } },
    service: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://a/token', scopes } } } },
    oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://a/oidc' } },
    mtls: { mtlsSecurityScheme: {} },
    future: { someNewScheme: { x: 1 } },
  },
  securityRequirements: [{ schemes: { bearer: { list: ['tasks:read'] }, mtls: {} } }, {}],
  signatures: [{ protected: 'eyJ', signature: 'c2ln', header: { kid: 'k1', n: 1 } }],
  iconUrl: 'https://org.example/icon.png',
};
const V03_FULL: Json = {
  name: 'full-v03',
  url: 'http://127.0.0.1:9/rpc',
  protocolVersion: '0.3.0',
  preferredTransport: 'JSONRPC',
  additionalInterfaces: [{ url: 'http://127.0.0.1:9/rest', transport: 'HTTP+JSON' }],
  capabilities: { streaming: true, stateTransitionHistory: true, extensions: [{ uri: 'urn:x' }] },
  supportsAuthenticatedExtendedCard: false,
  securitySchemes: {
    key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT', description: 'b' },
    oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://a/token', refreshUrl: 'https://a/r', scopes } } },
    oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://a/oidc' },
    mtls: { type: 'mutualTLS' },
  },
  security: [{ bearer: ['tasks:read'], mtls: [] }, { key: [] }],
  skills: [{ id: 'admin', name: 'admin', security: [{ oauth: ['tasks:write'] }] }],
};
const HYBRID: Json = { ...(V1_FULL as Record<string, Json>), url: 'http://127.0.0.1:9/legacy', protocolVersion: '0.3.0' };
const BASES: Json[] = [V1_FULL, V03_FULL, HYBRID, fixture('card-v1.json'), fixture('card-v03.json')];

/** A card, or one with a node replaced, removed or wrapped anywhere inside it (often twice), or any JSON. */
const card: fc.Arbitrary<Json> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...BASES) },
  { weight: 6, arbitrary: fc.constantFrom(...BASES).chain((base) => mutated(base)) },
  { weight: 3, arbitrary: fc.constantFrom(...BASES).chain((base) => mutated(base)).chain((once) => mutated(once)) },
  { weight: 1, arbitrary: weirdJson },
);

/** True when `value` or anything inside it has an own `__proto__` member (JSON.parse makes those). */
function hasProtoMember(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some(hasProtoMember);
}

/** What parseAgentCard returns or throws (`raw` left out: it is the input itself). */
function outcome(json: unknown): unknown {
  try {
    const { raw: _raw, ...parsed } = parseAgentCard(json);
    return { parsed };
  } catch (error) {
    return { error: error instanceof Error ? { message: error.message, ...(error as unknown as Record<string, unknown>) } : error };
  }
}

describe('card predicates (parseAgentCard without zod) answer as the zod card schemas', () => {
  it('accept every realistic card the schemas accept', () => {
    for (const base of BASES) {
      if (V1AgentCardSchema.safeParse(base).success) expect(isV1Card(base), JSON.stringify(base)).toBe(true);
      if (V03AgentCardSchema.safeParse(base).success) expect(isV03Card(base), JSON.stringify(base)).toBe(true);
    }
    expect(isV1Card(V1_FULL) && isV03Card(V03_FULL) && isV1Card(HYBRID) && isV03Card(HYBRID)).toBe(true);
  });

  it('never accept what zod refuses, and accept the cards zod accepts (random valid and broken cards)', () => {
    fc.assert(
      fc.property(card, (value) => {
        const v1 = V1AgentCardSchema.safeParse(value).success;
        const v03 = V03AgentCardSchema.safeParse(value).success;
        // Sound always; complete except for an own `__proto__` member, which they leave to zod on purpose.
        if (isV1Card(value)) expect(v1).toBe(true);
        if (isV03Card(value)) expect(v03).toBe(true);
        if (!hasProtoMember(value)) {
          expect(isV1Card(value)).toBe(v1);
          expect(isV03Card(value)).toBe(v03);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('parseAgentCard normalises a card the same whether the predicate or zod accepted it', () => {
    // A function-valued extra member: the predicates accept it, the copy fails, zod decides.
    const viaZod = (value: Json): unknown => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, hook: () => undefined } : value);
    fc.assert(
      fc.property(card, (value) => {
        expect(outcome(value)).toEqual(outcome(viaZod(value)));
      }),
      { numRuns: 1_000 },
    );
  });
});
