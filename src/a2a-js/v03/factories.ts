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
 * framework's nested copy is served as well as a top-level one. `Factory` is the `TransportFactory`
 * type of the 0.3 copy it is handed to, inferred where it is passed (the shapes are
 * {@link TransportFactoryV03}'s; the 0.3 SDK's own types cannot be named from here).
 */
export function resilientTransportsV03<Factory = TransportFactoryV03>(options: ResilientTransportOptions = {}): Factory[] {
  const clients = new AgentClients(options);
  const factories: TransportFactoryV03[] = BINDINGS.map((binding) => ({
    protocolName: binding,
    create(url: string, agentCard: unknown) {
      return Promise.resolve().then(() => {
        const client = clients.get(agentCard, url, binding, (card) => (card.interfaces.some((i) => i.binding === binding && i.version === '0.3') ? '0.3' : undefined));
        return new ResilientTransportV03(client);
      });
    },
  }));
  // Typed as the 0.3 copy's factories: the objects are TransportFactoryV03, the shapes the 0.3 SDK's.
  return factories as Factory[];
}
