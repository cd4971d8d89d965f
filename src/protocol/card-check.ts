/**
 * Agent card predicates: hand-written checks that answer like the card schemas (`V1AgentCardSchema`,
 * `V03AgentCardSchema`, with `card-fields.ts` and `card-security.ts`), so connecting to an agent
 * does not load zod. They are sound, not complete: `true` means zod accepts the card; on `false`,
 * `parseAgentCard` lets zod decide (and name the offending field). To stay on the safe side they
 * also say no to any object with an own `__proto__` member or a prototype other than `Object`'s
 * or none (zod's copy of such objects differs from a plain copy). The property test
 * `test/protocol/card-check.property.test.ts` holds them to the schemas.
 */
import type { Check } from './wire-check.js';
import { isArrayOf, isOptionalArrayOf, isOptionalBoolean, isOptionalString, isString } from './wire-check.js';

/** A plain object (what zod's object and record schemas take, narrowed to JSON-like objects). */
function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !Object.hasOwn(value, '__proto__') && Object.getOwnPropertySymbols(value).length === 0;
}

function optional(value: unknown, check: Check): boolean {
  return value === undefined || check(value);
}

/** `z.record(z.string(), value)`. */
function isRecordOf(value: unknown, check: Check): boolean {
  if (!isPlain(value)) return false;
  // Every own string key, enumerable or not, as zod's record reads them.
  for (const key of Object.getOwnPropertyNames(value)) if (!check(value[key])) return false;
  return true;
}

const isStringArray: Check = (v) => isArrayOf(v, isString);
const isScopes: Check = (v) => isRecordOf(v, isString);
const isAnyValue: Check = () => true;

/** OAuth flows (`FlowsSchema`). */
const isFlows: Check = (f) =>
  isPlain(f) &&
  optional(f.authorizationCode, (x) => isPlain(x) && isString(x.authorizationUrl) && isString(x.tokenUrl) && isOptionalString(x.refreshUrl) && isScopes(x.scopes) && isOptionalBoolean(x.pkceRequired)) &&
  optional(f.clientCredentials, (x) => isPlain(x) && isString(x.tokenUrl) && isOptionalString(x.refreshUrl) && isScopes(x.scopes)) &&
  optional(f.deviceCode, (x) => isPlain(x) && isString(x.deviceAuthorizationUrl) && isString(x.tokenUrl) && isOptionalString(x.refreshUrl) && isScopes(x.scopes)) &&
  optional(f.implicit, (x) => isPlain(x) && isOptionalString(x.authorizationUrl) && isOptionalString(x.refreshUrl) && optional(x.scopes, isScopes)) &&
  optional(f.password, (x) => isPlain(x) && isOptionalString(x.tokenUrl) && isOptionalString(x.refreshUrl) && optional(x.scopes, isScopes));

/** A v0.3 scheme of a known `type` (`V03SchemeSchema`). */
function isV03Scheme(s: Record<string, unknown>): boolean {
  if (!isOptionalString(s.description)) return false;
  switch (s.type) {
    case 'apiKey':
      return isString(s.in) && isString(s.name);
    case 'http':
      return isString(s.scheme) && isOptionalString(s.bearerFormat);
    case 'oauth2':
      return isFlows(s.flows) && isOptionalString(s.oauth2MetadataUrl);
    case 'openIdConnect':
      return isString(s.openIdConnectUrl);
    case 'mutualTLS':
      return true;
    default:
      return false;
  }
}

const V03_TYPES: ReadonlySet<unknown> = new Set(['apiKey', 'http', 'oauth2', 'openIdConnect', 'mutualTLS']);

/** A v1.0 scheme (`V1SchemeSchema`, whose `type` may not be a v0.3 one). */
function isV1Scheme(s: Record<string, unknown>): boolean {
  const described = (x: unknown): x is Record<string, unknown> => isPlain(x) && isOptionalString(x.description);
  return (
    !V03_TYPES.has(s.type) &&
    optional(s.apiKeySecurityScheme, (x) => described(x) && isString(x.location) && isString(x.name)) &&
    optional(s.httpAuthSecurityScheme, (x) => described(x) && isString(x.scheme) && isOptionalString(x.bearerFormat)) &&
    optional(s.oauth2SecurityScheme, (x) => described(x) && isFlows(x.flows) && isOptionalString(x.oauth2MetadataUrl)) &&
    optional(s.openIdConnectSecurityScheme, (x) => described(x) && isString(x.openIdConnectUrl)) &&
    optional(s.mtlsSecurityScheme, described)
  );
}

const isScheme: Check = (s) => isPlain(s) && (V03_TYPES.has(s.type) ? isV03Scheme(s) : isV1Scheme(s));

/** v1.0 requirements: `[{ schemes?: { name: { list?: [scopes] } } }]`. */
const isV1Requirements: Check = (v) => isArrayOf(v, (r) => isPlain(r) && optional(r.schemes, (m) => isRecordOf(m, (s) => isPlain(s) && optional(s.list, isStringArray))));
/** v0.3 requirements: `[{ name: [scopes] }]`. */
const isV03Requirements: Check = (v) => isArrayOf(v, (r) => isRecordOf(r, isStringArray));

const isSkill: Check = (s) =>
  isPlain(s) &&
  isString(s.id) &&
  isString(s.name) &&
  isOptionalString(s.description) &&
  optional(s.tags, isStringArray) &&
  optional(s.examples, isStringArray) &&
  optional(s.securityRequirements, isV1Requirements) &&
  optional(s.security, isV03Requirements);

const isSignature: Check = (g) => isPlain(g) && isString(g.protected) && isString(g.signature) && optional(g.header, (h) => isRecordOf(h, isAnyValue));
const isExtension: Check = (e) => isPlain(e) && isString(e.uri) && isOptionalBoolean(e.required);

/** The fields both versions share (`commonCardFields`). */
function hasCommonFields(c: Record<string, unknown>): boolean {
  return (
    isString(c.name) &&
    isOptionalString(c.description) &&
    isOptionalString(c.version) &&
    isOptionalArrayOf(c.skills, isSkill) &&
    optional(c.defaultInputModes, isStringArray) &&
    optional(c.defaultOutputModes, isStringArray) &&
    optional(c.provider, (p) => isPlain(p) && isOptionalString(p.organization) && isOptionalString(p.url)) &&
    optional(c.securitySchemes, (m) => isRecordOf(m, isScheme)) &&
    optional(c.securityRequirements, isV1Requirements) &&
    optional(c.security, isV03Requirements) &&
    isOptionalArrayOf(c.signatures, isSignature)
  );
}

/** True when `V1AgentCardSchema` accepts `card` (see the file comment). */
export function isV1Card(card: unknown): boolean {
  return (
    isPlain(card) &&
    hasCommonFields(card) &&
    Array.isArray(card.supportedInterfaces) &&
    card.supportedInterfaces.length >= 1 &&
    isArrayOf(card.supportedInterfaces, (i) => isPlain(i) && isString(i.url) && isString(i.protocolBinding) && isString(i.protocolVersion) && isOptionalString(i.tenant)) &&
    optional(
      card.capabilities,
      (c) =>
        isPlain(c) &&
        isOptionalBoolean(c.streaming) &&
        isOptionalBoolean(c.pushNotifications) &&
        isOptionalBoolean(c.extendedAgentCard) &&
        isOptionalArrayOf(c.extensions, isExtension),
    )
  );
}

/** True when `V03AgentCardSchema` accepts `card` (see the file comment). */
export function isV03Card(card: unknown): boolean {
  return (
    isPlain(card) &&
    hasCommonFields(card) &&
    isString(card.url) &&
    isOptionalString(card.protocolVersion) &&
    isOptionalString(card.preferredTransport) &&
    isOptionalArrayOf(card.additionalInterfaces, (i) => isPlain(i) && isString(i.url) && isString(i.transport)) &&
    optional(
      card.capabilities,
      (c) =>
        isPlain(c) &&
        isOptionalBoolean(c.streaming) &&
        isOptionalBoolean(c.pushNotifications) &&
        isOptionalBoolean(c.stateTransitionHistory) &&
        isOptionalArrayOf(c.extensions, isExtension),
    ) &&
    isOptionalBoolean(card.supportsAuthenticatedExtendedCard)
  );
}
