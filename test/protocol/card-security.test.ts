/**
 * Security schemes and requirements of agent cards, both versions, into the one model.
 */
import { describe, expect, it } from 'vitest';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { parseAgentCard } from '../../src/protocol/card.js';
import type { SecurityScheme } from '../../src/protocol/model.js';

const iface = { url: 'http://127.0.0.1:9/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
const scopes = { 'tasks:read': 'read tasks' };

/** The model every card below must normalise into (same names, whatever the version). */
const MODEL: Record<string, SecurityScheme> = {
  key: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'per-tenant key' },
  bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
  oauth: {
    type: 'oauth2',
    metadataUrl: 'https://auth.example/.well-known/oauth-authorization-server',
    flows: {
      authorizationCode: { authorizationUrl: 'https://auth.example/authorize', tokenUrl: 'https://auth.example/token', scopes, pkceRequired: true },
    },
  },
  device: { type: 'oauth2', flows: { deviceCode: { deviceAuthorizationUrl: 'https://auth.example/device', tokenUrl: 'https://auth.example/token', scopes } } },
  service: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', refreshUrl: 'https://auth.example/refresh', scopes } } },
  oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' },
  mtls: { type: 'mutualTLS', description: 'client certificate' },
};

const v1Card = {
  name: 'secured-v1',
  description: '',
  supportedInterfaces: [iface],
  capabilities: {},
  securitySchemes: {
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: 'per-tenant key' } },
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT', description: '' } },
    oauth: {
      oauth2SecurityScheme: {
        flows: { authorizationCode: { authorizationUrl: 'https://auth.example/authorize', tokenUrl: 'https://auth.example/token', refreshUrl: '', scopes, pkceRequired: true } },
        oauth2MetadataUrl: 'https://auth.example/.well-known/oauth-authorization-server',
      },
    },
    device: { oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: 'https://auth.example/device', tokenUrl: 'https://auth.example/token', scopes } } } },
    service: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', refreshUrl: 'https://auth.example/refresh', scopes } } } },
    oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' } },
    mtls: { mtlsSecurityScheme: { description: 'client certificate' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: ['tasks:read'] }, mtls: {} } }, { schemes: { key: { list: [] } } }],
  skills: [{ id: 'admin', name: 'admin', securityRequirements: [{ schemes: { oauth: { list: ['tasks:write'] } } }] }],
};

const v03Card = {
  name: 'secured-v03',
  url: 'http://127.0.0.1:9/rpc',
  protocolVersion: '0.3.0',
  capabilities: {},
  securitySchemes: {
    key: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'per-tenant key' },
    bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
    oauth: {
      type: 'oauth2',
      flows: { authorizationCode: { authorizationUrl: 'https://auth.example/authorize', tokenUrl: 'https://auth.example/token', scopes, pkceRequired: true } },
      oauth2MetadataUrl: 'https://auth.example/.well-known/oauth-authorization-server',
    },
    device: { type: 'oauth2', flows: { deviceCode: { deviceAuthorizationUrl: 'https://auth.example/device', tokenUrl: 'https://auth.example/token', scopes } } },
    service: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', refreshUrl: 'https://auth.example/refresh', scopes } } },
    oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration' },
    mtls: { type: 'mutualTLS', description: 'client certificate' },
  },
  security: [{ bearer: ['tasks:read'], mtls: [] }, { key: [] }],
  skills: [{ id: 'admin', name: 'admin', security: [{ oauth: ['tasks:write'] }] }],
};

const REQUIREMENTS = [{ bearer: ['tasks:read'], mtls: [] }, { key: [] }];

function cardError(json: unknown) {
  try {
    parseAgentCard(json);
  } catch (e) {
    if (isA2AClientError(e)) return e;
    throw e;
  }
  throw new Error('expected the card to be refused');
}

describe('agent card security', () => {
  it.each([
    ['v1.0 (oneof schemes, securityRequirements)', v1Card],
    ['v0.3 (OpenAPI schemes with type, security)', v03Card],
  ])('%s: every kind of scheme, the requirements and a skill’s own requirement', (_, json) => {
    const card = parseAgentCard(json);
    expect(card.securitySchemes).toEqual(MODEL);
    expect(card.security).toEqual(REQUIREMENTS);
    expect(card.skills[0]?.security).toEqual([{ oauth: ['tasks:write'] }]);
  });

  it('a hybrid card may mix both shapes; v1.0 requirements win over v0.3 ones', () => {
    const card = parseAgentCard({
      ...v1Card,
      url: 'http://127.0.0.1:9/rpc',
      securitySchemes: { key: v03Card.securitySchemes.key, bearer: v1Card.securitySchemes.bearer },
      security: [{ key: [] }],
    });
    expect(card.securitySchemes).toEqual({ key: MODEL.key, bearer: MODEL.bearer });
    expect(card.security).toEqual(REQUIREMENTS);
  });

  it('a card that declares nothing (or empty maps, as the official server serves) has neither field', () => {
    const card = parseAgentCard({ ...v1Card, securitySchemes: {}, securityRequirements: [], skills: [] });
    expect(card).not.toHaveProperty('securitySchemes');
    expect(card).not.toHaveProperty('security');
  });

  it('a scheme of a kind this SDK does not know is kept as unknown, with what was served', () => {
    const card = parseAgentCard({ ...v1Card, securitySchemes: { future: { x509SecurityScheme: { issuer: 'ca' } }, legacy: { type: 'digest', realm: 'r' } } });
    expect(card.securitySchemes).toEqual({
      future: { type: 'unknown', raw: { x509SecurityScheme: { issuer: 'ca' } } },
      legacy: { type: 'unknown', raw: { type: 'digest', realm: 'r' } },
    });
  });

  it.each([
    ['a v0.3 apiKey without its name', { ...v03Card, securitySchemes: { key: { type: 'apiKey', in: 'header' } } }],
    ['a v1.0 OpenID Connect scheme without its URL', { ...v1Card, securitySchemes: { oidc: { openIdConnectSecurityScheme: {} } } }],
    ['a device-code flow without its token URL', { ...v1Card, securitySchemes: { device: { oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: 'x', scopes } } } } } }],
    ['requirements that are not lists of scopes', { ...v03Card, security: [{ key: 'all' }] }],
  ])('%s fails the card (kind card, naming the field)', (_, json) => {
    const error = cardError(json);
    expect(error.kind).toBe('card');
    expect(error.field).toMatch(/^security/);
  });
});
