/**
 * The agent card a mock serves, in the wire shape of its version.
 */
import type { ProtocolBinding, ProtocolVersion } from '../src/protocol/model.js';
import type { WireObject } from './wire-v1.js';

/** What the card is built from. */
export interface CardInput {
  name: string;
  version: ProtocolVersion;
  binding: ProtocolBinding;
  /** Where the agent is reached (no trailing slash). */
  baseUrl: string;
  streaming: boolean;
  description?: string;
}

/** The service endpoint: JSON-RPC and REST both use the base URL (v0.3 REST routes add `/v1`). */
export function endpointOf(baseUrl: string): string {
  return baseUrl;
}

/**
 * v1.0: `supportedInterfaces` + `capabilities.extendedAgentCard`; v0.3: `url`, `preferredTransport`,
 * `protocolVersion: '0.3.0'`, `supportsAuthenticatedExtendedCard`.
 */
export function buildCard(c: CardInput): WireObject {
  const common = {
    name: c.name,
    description: c.description ?? `Mock A2A agent ${c.name}`,
    version: '1.0.0',
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes the input', tags: ['mock'] }],
  };
  if (c.version === '1.0') {
    return {
      ...common,
      supportedInterfaces: [{ url: endpointOf(c.baseUrl), protocolBinding: c.binding, protocolVersion: '1.0' }],
      capabilities: { streaming: c.streaming, pushNotifications: true, extendedAgentCard: true },
    };
  }
  return {
    ...common,
    protocolVersion: '0.3.0',
    url: endpointOf(c.baseUrl),
    preferredTransport: c.binding,
    capabilities: { streaming: c.streaming, pushNotifications: true },
    supportsAuthenticatedExtendedCard: true,
  };
}
