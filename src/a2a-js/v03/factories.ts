import { AgentClients } from '../agent-clients.js';
import type { ResilientTransportOptions } from '../options.js';
import { BINDINGS } from '../bindings.js';
import { ResilientTransportV03 } from './transport.js';
import type { TransportFactoryV03 } from './types.js';

/**
 * Transport factories for `@a2a-js/sdk` 0.3's `ClientFactory` — what `@google/adk`'s
 * `RemoteA2AAgent` uses (`clientFactory: new ClientFactory({ transports: resilientTransportsV03() })`)
 * — one per binding, each running every call through this SDK's pipeline. The agent is spoken to in
 * v0.3 where its card offers v0.3 at that binding, else in the version the card offers (a v1.0-only
 * agent answers in v0.3 shapes through these transports). Imports nothing of the 0.3 SDK: a
 * framework's nested copy is served as well as a top-level one.
 */
export function resilientTransportsV03(options: ResilientTransportOptions = {}): TransportFactoryV03[] {
  const clients = new AgentClients(options);
  return BINDINGS.map((binding) => ({
    protocolName: binding,
    create(url: string, agentCard: unknown) {
      return Promise.resolve().then(() => {
        const client = clients.get(agentCard, url, binding, (card) => (card.interfaces.some((i) => i.binding === binding && i.version === '0.3') ? '0.3' : undefined));
        return new ResilientTransportV03(client);
      });
    },
  }));
}
