import { A2AClient } from '../client/a2a-client.js';
import type { CallOptions } from '../client/options.js';
import type { AgentCard } from '../protocol/model.js';
import { resolvedClients } from './agent-clients.js';
import type { ResilientTransportOptions } from './options.js';

/**
 * A card resolver for either generation of `@a2a-js/sdk`'s `ClientFactory` (`cardResolver` option).
 * `Card` is the card type of the SDK it is handed to, inferred where it is passed; the object is the
 * card's JSON, as the official resolvers hand a served card on.
 */
export interface ResilientCardResolver<Card = Record<string, unknown>> {
  /**
   * Fetches the agent card at `baseUrl` (`/.well-known/agent-card.json` below it, then
   * `/.well-known/agent.json`; a URL ending in `.json`, or `path` resolved against `baseUrl`, is used
   * as it is) as `A2AClient.connect` does: under the options' deadline and retries, with redirects
   * guarded and signatures verified as `cardSignature` says. Resolves with the card as served, plus what the other generation
   * needs to pick an interface: `supportedInterfaces` for a v0.3 card (each `protocolVersion: '0.3'`,
   * as the official resolver's legacy mode writes them), `url` and `preferredTransport` for a v1.0 card.
   * @throws A2AClientError kind `card` (missing, invalid or unverified card), `unsupported` (also for
   * a card with no interface this SDK speaks), `deadline-exceeded`, `aborted` (`call.signal`) or a
   * transport kind.
   */
  resolve(baseUrl: string, path?: string): Promise<Card>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The card as served, with the fields of the other generation filled in from its interfaces. */
export function cardForSdks(card: AgentCard): Record<string, unknown> {
  const out: Record<string, unknown> = isRecord(card.raw) ? { ...card.raw } : { name: card.name };
  if (!Array.isArray(out.supportedInterfaces)) {
    out.supportedInterfaces = card.interfaces.map((i) => ({ url: i.url, protocolBinding: i.binding, protocolVersion: i.version }));
  }
  const first = card.interfaces[0];
  if (typeof out.url !== 'string' && first !== undefined) {
    out.url = first.url;
    out.preferredTransport = first.binding;
  }
  return out;
}

/**
 * A card resolver for `@a2a-js/sdk`'s `ClientFactory` (1.x and 0.3) that fetches through this SDK
 * (see {@link ResilientCardResolver.resolve}). A transport from `resilientTransports*()` given a card
 * it resolved reuses the client that fetched it, when that client speaks the interface the factory chose.
 * @example
 * new ClientFactory({ transports: resilientTransports(options), cardResolver: resilientCardResolver(options) })
 */
export function resilientCardResolver<Card = Record<string, unknown>>(options: ResilientTransportOptions = {}, call: CallOptions = {}): ResilientCardResolver<Card> {
  return {
    async resolve(baseUrl, path) {
      const url = path === undefined ? baseUrl : new URL(path, baseUrl).href;
      const client = await A2AClient.connect(url, options, call);
      const out = cardForSdks(client.card);
      resolvedClients.set(out, client);
      // The card's JSON, typed as the SDK generation the resolver is handed to types its cards.
      return out as Card;
    },
  };
}
