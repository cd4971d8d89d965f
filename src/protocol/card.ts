/**
 * Agent card validation (either version), normalisation into the model `AgentCard`, and the choice of
 * which interface (version + binding + URL) to talk to.
 */
import { inEnglish, lazy, z } from '../util/lazy-zod.js';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AgentCard, AgentInterface, ProtocolBinding, ProtocolVersion } from './model.js';
import { isV03Card, isV1Card } from './card-check.js';
import { securityRequirementsOf, securitySchemesOf } from './card-security.js';
import { isObject } from './wire-check.js';
import { opt } from './opt.js';
import { V03AgentCardSchema } from './v03/schemas.js';
import { V1AgentCardSchema } from './v1/schemas.js';

/**
 * `schema`'s output for `json`. When `check` (a predicate of `card-check.ts`) accepts the card, zod
 * is not run: the output is a copy of `json` (zod's output is a copy too, and these schemas only
 * check); otherwise zod parses, to accept what the predicate was unsure of or name what is wrong.
 */
function parseCard<S extends z.ZodType>(schema: S, json: unknown, check?: (card: unknown) => boolean): z.infer<S> {
  if (check?.(json) === true) {
    const copy = copyOf(json);
    if (copy !== undefined) return copy as z.infer<S>;
  }
  const result = schema.safeParse(json, inEnglish());
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  const first = issues[0] ?? { path: '(root)', message: 'invalid' };
  throw new A2AClientError({
    kind: 'card',
    message: `Invalid agent card: ${first.path}: ${first.message}`,
    cause: result.error,
    field: first.path,
    issues,
  });
}

/** A deep copy of a card that passed a predicate, or `undefined` when it holds what cannot be copied (zod decides then). */
function copyOf(json: unknown): unknown {
  try {
    return structuredClone(json);
  } catch {
    // Functions, class instances and the like in a caller's card object: leave it to zod.
    return undefined;
  }
}

/** Normalises a protocol version string (`1.0.1` → `1.0`, `0.3.0` → `0.3`); other versions pass through. */
export function normaliseVersion(v: string): ProtocolVersion | (string & {}) {
  if (v === '1' || v.startsWith('1.')) return '1.0';
  if (v.startsWith('0.3')) return '0.3';
  return v;
}

const Shape = lazy(() => z.looseObject({ supportedInterfaces: z.optional(z.unknown()), url: z.optional(z.unknown()) }));

/**
 * Validates an agent card of either version and normalises it. v1.0 `supportedInterfaces` keep their
 * order; a v0.3 card yields `url`+`preferredTransport` first, then `additionalInterfaces`, all at its
 * `protocolVersion`. A hybrid card (both) lists the v1.0 interfaces, then any v0.3 ones not already listed.
 * @throws A2AClientError kind `card` naming the offending field.
 */
export function parseAgentCard(json: unknown): AgentCard {
  const shape = isObject(json) ? json : parseCard(Shape, json);
  const hasV1 = shape.supportedInterfaces !== undefined;
  const hasV03 = shape.url !== undefined;
  if (!hasV1 && !hasV03) {
    throw new A2AClientError({
      kind: 'card',
      message: 'Invalid agent card: supportedInterfaces: missing (and no v0.3 url)',
      field: 'supportedInterfaces',
    });
  }
  const interfaces: AgentInterface[] = [];
  let base: z.infer<typeof V1AgentCardSchema> | z.infer<typeof V03AgentCardSchema> | undefined;
  let stateTransitionHistory: boolean | undefined;
  let extendedAgentCard: boolean | undefined;
  if (hasV1) {
    const v1 = parseCard(V1AgentCardSchema, json, isV1Card);
    base = v1;
    extendedAgentCard = v1.capabilities?.extendedAgentCard;
    for (const i of v1.supportedInterfaces) {
      interfaces.push({ url: i.url, binding: i.protocolBinding, version: normaliseVersion(i.protocolVersion), ...opt('tenant', i.tenant || undefined) });
    }
  }
  if (hasV03) {
    const v03 = parseCard(V03AgentCardSchema, json, isV03Card);
    if (!hasV1) base = v03;
    stateTransitionHistory = v03.capabilities?.stateTransitionHistory;
    extendedAgentCard ??= v03.supportsAuthenticatedExtendedCard;
    const version = normaliseVersion(v03.protocolVersion ?? '0.3');
    const legacy = [{ url: v03.url, transport: v03.preferredTransport ?? 'JSONRPC' }, ...(v03.additionalInterfaces ?? [])];
    for (const l of legacy) {
      const dup = interfaces.some((i) => i.url === l.url && i.binding === l.transport && i.version === version);
      if (!dup) interfaces.push({ url: l.url, binding: l.transport, version });
    }
  }
  const c = base;
  if (c === undefined) throw new A2AClientError({ kind: 'card', message: 'Invalid agent card', field: '(root)' });
  return {
    name: c.name,
    ...opt('description', c.description),
    ...opt('version', c.version),
    interfaces,
    capabilities: {
      ...opt('streaming', c.capabilities?.streaming),
      ...opt('pushNotifications', c.capabilities?.pushNotifications),
      ...opt('extendedAgentCard', extendedAgentCard),
      ...opt('stateTransitionHistory', stateTransitionHistory),
      ...opt('extensions', c.capabilities?.extensions?.map((e) => ({ uri: e.uri, ...opt('required', e.required) }))),
    },
    skills: (c.skills ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      ...opt('description', s.description),
      ...opt('tags', s.tags),
      ...opt('examples', s.examples),
      ...opt('security', securityRequirementsOf(s.securityRequirements, s.security)),
    })),
    ...opt('defaultInputModes', c.defaultInputModes),
    ...opt('defaultOutputModes', c.defaultOutputModes),
    ...opt('provider', c.provider),
    ...opt('securitySchemes', securitySchemesOf(c.securitySchemes)),
    ...opt('security', securityRequirementsOf(c.securityRequirements, c.security)),
    ...opt('signatures', c.signatures && c.signatures.length > 0 ? c.signatures.map((g) => ({ protected: g.protected, signature: g.signature, ...opt('header', g.header) })) : undefined),
    raw: json,
  };
}

/** Which interface to use, chosen from a card. */
export interface SelectedInterface {
  version: ProtocolVersion;
  binding: ProtocolBinding;
  url: string;
  tenant?: string;
}

/** A caller's preference among the card's interfaces. */
export interface InterfacePreference {
  version?: ProtocolVersion;
  binding?: ProtocolBinding;
  /** A binding to pass over (gRPC when its peers are not installed and the caller did not insist on it). */
  skip?: ProtocolBinding;
}

const BINDINGS: ReadonlySet<string> = new Set<ProtocolBinding>(['JSONRPC', 'HTTP+JSON', 'GRPC']);

function isVersion(v: string): v is ProtocolVersion {
  return v === '1.0' || v === '0.3';
}
function isBinding(b: string): b is ProtocolBinding {
  return BINDINGS.has(b);
}

/**
 * Picks the first interface in the card's order whose version and binding this SDK speaks and that
 * matches the preference (when given).
 * @throws A2AClientError kind `unsupported` when no interface qualifies.
 */
export function selectInterface(card: AgentCard, preference: InterfacePreference = {}): SelectedInterface {
  for (const i of card.interfaces) {
    const version = normaliseVersion(i.version);
    const binding = i.binding.toUpperCase() === 'HTTP+JSON' || i.binding.toUpperCase() === 'REST' ? 'HTTP+JSON' : i.binding;
    if (!isVersion(version) || !isBinding(binding)) continue;
    if (preference.version !== undefined && preference.version !== version) continue;
    if (preference.binding !== undefined && preference.binding !== binding) continue;
    if (preference.skip === binding) continue;
    // v0.3 has no tenant: one on a v0.3 entry of a hybrid card is not sent, so it is not shown either.
    return { version, binding, url: i.url, ...opt('tenant', version === '1.0' ? i.tenant : undefined) };
  }
  const offered = card.interfaces.map((i) => `${i.binding} ${i.version}`).join(', ') || 'none';
  const wanted = [preference.binding, preference.version].filter((v) => v !== undefined).join(' ');
  throw new A2AClientError({
    kind: 'unsupported',
    message: `No usable interface${wanted ? ` for ${wanted}` : ''} on agent card (offered: ${offered}; supported: JSONRPC, HTTP+JSON, GRPC at 1.0 or 0.3)`,
    agent: card.name,
  });
}
