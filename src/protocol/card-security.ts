/**
 * An agent card's security schemes and requirements, both versions, into the one model
 * (`SecurityScheme`, `SecurityRequirement`). v0.3 writes a scheme as an OpenAPI object with a `type`
 * (`apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS`) and requirements as `security:
 * [{ name: scopes }]`; v1.0 (ProtoJSON) writes a scheme as a oneof (`apiKeySecurityScheme`,
 * `httpAuthSecurityScheme`, `oauth2SecurityScheme`, `openIdConnectSecurityScheme`,
 * `mtlsSecurityScheme`) and requirements as `securityRequirements: [{ schemes: { name: { list } } }]`.
 * Each scheme is read by its own shape, so a hybrid card may mix both. A scheme of a kind this SDK
 * does not know is kept as `{ type: 'unknown', raw }`; a known kind missing what it needs fails the card.
 */
import { lazy, z } from '../util/lazy-zod.js';
import type { OAuthFlows, SecurityRequirement, SecurityScheme } from './model.js';
import { opt } from './opt.js';

const description = lazy(() => z.optional(z.string()));
const scopes = lazy(() => z.record(z.string(), z.string()));
const refreshUrl = lazy(() => z.optional(z.string()));

/** OAuth 2 flows; the same member names in both versions (v1.0 adds `deviceCode`, a oneof). */
const FlowsSchema = lazy(() => z.looseObject({
  authorizationCode: z.optional(z.looseObject({ authorizationUrl: z.string(), tokenUrl: z.string(), refreshUrl, scopes, pkceRequired: z.optional(z.boolean()) })),
  clientCredentials: z.optional(z.looseObject({ tokenUrl: z.string(), refreshUrl, scopes })),
  deviceCode: z.optional(z.looseObject({ deviceAuthorizationUrl: z.string(), tokenUrl: z.string(), refreshUrl, scopes })),
  implicit: z.optional(z.looseObject({ authorizationUrl: z.optional(z.string()), refreshUrl, scopes: z.optional(scopes) })),
  password: z.optional(z.looseObject({ tokenUrl: z.optional(z.string()), refreshUrl, scopes: z.optional(scopes) })),
}));

/** A v0.3 (OpenAPI-style) scheme, discriminated by `type`. */
const V03SchemeSchema = lazy(() => z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('apiKey'), in: z.string(), name: z.string(), description }),
  z.looseObject({ type: z.literal('http'), scheme: z.string(), bearerFormat: z.optional(z.string()), description }),
  z.looseObject({ type: z.literal('oauth2'), flows: FlowsSchema, oauth2MetadataUrl: z.optional(z.string()), description }),
  z.looseObject({ type: z.literal('openIdConnect'), openIdConnectUrl: z.string(), description }),
  z.looseObject({ type: z.literal('mutualTLS'), description }),
]));

/** A v1.0 scheme: a oneof, each member its own object. */
const V1SchemeSchema = lazy(() => z.looseObject({
  apiKeySecurityScheme: z.optional(z.looseObject({ location: z.string(), name: z.string(), description })),
  httpAuthSecurityScheme: z.optional(z.looseObject({ scheme: z.string(), bearerFormat: z.optional(z.string()), description })),
  oauth2SecurityScheme: z.optional(z.looseObject({ flows: FlowsSchema, oauth2MetadataUrl: z.optional(z.string()), description })),
  openIdConnectSecurityScheme: z.optional(z.looseObject({ openIdConnectUrl: z.string(), description })),
  mtlsSecurityScheme: z.optional(z.looseObject({ description })),
}));

const V03_TYPES: ReadonlySet<unknown> = new Set(['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS']);

/**
 * A card's `securitySchemes`: a map of scheme name → scheme of either version (read per entry). An
 * entry of a known v0.3 `type` must be a valid scheme of that type (it may not pass as a v1.0 one).
 */
export const SecuritySchemesSchema = lazy(() => z.record(
  z.string(),
  z.union([V03SchemeSchema, V1SchemeSchema.check(z.refine((s) => !V03_TYPES.has((s as { type?: unknown }).type), { message: 'invalid security scheme' }))]),
));

/** v0.3 requirements: `[{ schemeName: [scopes] }]`. */
export const V03RequirementsSchema = lazy(() => z.array(z.record(z.string(), z.array(z.string()))));

/** v1.0 requirements: `[{ schemes: { schemeName: { list: [scopes] } } }]`. */
export const V1RequirementsSchema = lazy(() => z.array(z.looseObject({ schemes: z.optional(z.record(z.string(), z.looseObject({ list: z.optional(z.array(z.string())) }))) })));

type Flows = z.infer<typeof FlowsSchema>;
type WireScheme = z.infer<typeof SecuritySchemesSchema>[string];

function flows(f: Flows): OAuthFlows {
  const out: OAuthFlows = {};
  const ac = f.authorizationCode;
  if (ac) out.authorizationCode = { authorizationUrl: ac.authorizationUrl, tokenUrl: ac.tokenUrl, scopes: ac.scopes, ...opt('refreshUrl', ac.refreshUrl || undefined), ...opt('pkceRequired', ac.pkceRequired) };
  const cc = f.clientCredentials;
  if (cc) out.clientCredentials = { tokenUrl: cc.tokenUrl, scopes: cc.scopes, ...opt('refreshUrl', cc.refreshUrl || undefined) };
  const dc = f.deviceCode;
  if (dc) out.deviceCode = { deviceAuthorizationUrl: dc.deviceAuthorizationUrl, tokenUrl: dc.tokenUrl, scopes: dc.scopes, ...opt('refreshUrl', dc.refreshUrl || undefined) };
  const im = f.implicit;
  if (im) out.implicit = { scopes: im.scopes ?? {}, ...opt('authorizationUrl', im.authorizationUrl || undefined), ...opt('refreshUrl', im.refreshUrl || undefined) };
  const pw = f.password;
  if (pw) out.password = { scopes: pw.scopes ?? {}, ...opt('tokenUrl', pw.tokenUrl || undefined), ...opt('refreshUrl', pw.refreshUrl || undefined) };
  return out;
}

/** One validated wire scheme (either version) → the model. */
function scheme(s: WireScheme): SecurityScheme {
  const d = (x: { description?: string | undefined }) => opt('description', x.description || undefined);
  if ('type' in s && typeof s.type === 'string') {
    const v03 = s as z.infer<typeof V03SchemeSchema>;
    switch (v03.type) {
      case 'apiKey':
        return { type: 'apiKey', in: v03.in.toLowerCase(), name: v03.name, ...d(v03) };
      case 'http':
        return { type: 'http', scheme: v03.scheme, ...opt('bearerFormat', v03.bearerFormat || undefined), ...d(v03) };
      case 'oauth2':
        return { type: 'oauth2', flows: flows(v03.flows), ...opt('metadataUrl', v03.oauth2MetadataUrl || undefined), ...d(v03) };
      case 'openIdConnect':
        return { type: 'openIdConnect', openIdConnectUrl: v03.openIdConnectUrl, ...d(v03) };
      case 'mutualTLS':
        return { type: 'mutualTLS', ...d(v03) };
    }
  }
  const v1 = s as z.infer<typeof V1SchemeSchema>;
  if (v1.apiKeySecurityScheme) return { type: 'apiKey', in: v1.apiKeySecurityScheme.location.toLowerCase(), name: v1.apiKeySecurityScheme.name, ...d(v1.apiKeySecurityScheme) };
  if (v1.httpAuthSecurityScheme) {
    const h = v1.httpAuthSecurityScheme;
    return { type: 'http', scheme: h.scheme, ...opt('bearerFormat', h.bearerFormat || undefined), ...d(h) };
  }
  if (v1.oauth2SecurityScheme) {
    const o = v1.oauth2SecurityScheme;
    return { type: 'oauth2', flows: flows(o.flows), ...opt('metadataUrl', o.oauth2MetadataUrl || undefined), ...d(o) };
  }
  if (v1.openIdConnectSecurityScheme) return { type: 'openIdConnect', openIdConnectUrl: v1.openIdConnectSecurityScheme.openIdConnectUrl, ...d(v1.openIdConnectSecurityScheme) };
  if (v1.mtlsSecurityScheme) return { type: 'mutualTLS', ...d(v1.mtlsSecurityScheme) };
  return { type: 'unknown', raw: s };
}

/** Validated `securitySchemes` → the model; `undefined` when the card declares none. */
export function securitySchemesOf(schemes: z.infer<typeof SecuritySchemesSchema> | undefined): Record<string, SecurityScheme> | undefined {
  if (schemes === undefined) return undefined;
  const entries = Object.entries(schemes);
  if (entries.length === 0) return undefined;
  const out: Record<string, SecurityScheme> = {};
  // Own data properties, even for a scheme named `__proto__`.
  for (const [name, s] of entries) Object.defineProperty(out, name, { value: scheme(s), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * Validated requirements → the model (each a map of scheme name → scopes; the list is OR-ed, the
 * names within one requirement AND-ed): v1.0 `securityRequirements` first, else v0.3 `security`.
 * `undefined` when there are none.
 */
export function securityRequirementsOf(
  v1: z.infer<typeof V1RequirementsSchema> | undefined,
  v03: z.infer<typeof V03RequirementsSchema> | undefined,
): SecurityRequirement[] | undefined {
  const out: SecurityRequirement[] = [];
  const record = (pairs: Array<[string, string[]]>): SecurityRequirement => {
    const r: SecurityRequirement = {};
    for (const [name, list] of pairs) Object.defineProperty(r, name, { value: list, enumerable: true, writable: true, configurable: true });
    return r;
  };
  if (v1 !== undefined && v1.length > 0) for (const req of v1) out.push(record(Object.entries(req.schemes ?? {}).map(([name, s]) => [name, s.list ?? []])));
  else for (const req of v03 ?? []) out.push(record(Object.entries(req)));
  return out.length === 0 ? undefined : out;
}
