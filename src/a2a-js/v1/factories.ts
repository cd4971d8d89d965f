import type { TransportFactory } from '@a2a-js/sdk/client';
import { AgentClients, versionAt } from '../agent-clients.js';
import { BINDINGS } from '../bindings.js';
import type { ResilientTransportOptions } from '../options.js';
import { cardJsonOf } from './card-json.js';
import { loadSdkV1 } from './sdk.js';
import { ResilientTransport } from './transport.js';

/**
 * Transport factories for `@a2a-js/sdk` 1.x's `ClientFactory`, one per binding (`JSONRPC`,
 * `HTTP+JSON`, `GRPC`), each running every call through this SDK's pipeline. The factory picks the
 * interface from the card as it does with its own transports; a legacy (v0.3) interface is spoken as
 * v0.3. Connections are pooled per agent interface across the transports these factories create.
 * @example
 * new ClientFactory({ transports: resilientTransports({ timeouts: { totalMs: 30_000 } }), cardResolver: resilientCardResolver() })
 */
export function resilientTransports(options: ResilientTransportOptions = {}): TransportFactory[] {
  const clients = new AgentClients(options);
  return BINDINGS.map((binding) => ({
    protocolName: binding,
    async create(url: string, agentCard: unknown) {
      const sdk = await loadSdkV1();
      const client = clients.get(cardJsonOf(sdk, agentCard), url, binding, (card) => versionAt(card, url, binding));
      return new ResilientTransport(client, sdk);
    },
  }));
}
