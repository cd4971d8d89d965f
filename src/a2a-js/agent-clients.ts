import { A2AClient } from '../client/a2a-client.js';
import { parseAgentCard } from '../protocol/card.js';
import type { AgentCard, ProtocolBinding, ProtocolVersion } from '../protocol/model.js';
import type { ResilientTransportOptions } from './options.js';

/** Cards `resilientCardResolver` handed out → the client that fetched them, so a transport can reuse it. */
export const resolvedClients = new WeakMap<object, A2AClient>();

/** How many clients one set of transports keeps (one per agent interface it was asked for). */
const MAX_CLIENTS = 256;

/**
 * The `A2AClient`s behind the transports of one `resilientTransports*()` call: one per agent
 * interface and card, reused by every transport created for it, so their connections are pooled. The
 * per-agent breaker and budget are process-wide (keyed by origin) whichever client a call goes through.
 */
export class AgentClients {
  readonly #clients = new Map<string, A2AClient>();

  constructor(readonly options: ResilientTransportOptions) {}

  /**
   * The client for the interface at `url` with `binding`, speaking `version` (or what the card offers
   * at that URL when `version` is undefined). A card `resilientCardResolver` resolved comes with the
   * client that fetched it, used when it speaks that interface.
   * @throws A2AClientError kind `card` or `unsupported` (see `A2AClient`'s constructor).
   */
  get(cardJson: unknown, url: string, binding: ProtocolBinding, version: (card: AgentCard) => ProtocolVersion | undefined): A2AClient {
    const resolved = typeof cardJson === 'object' && cardJson !== null ? resolvedClients.get(cardJson) : undefined;
    const card = resolved?.card ?? parseAgentCard(cardJson);
    const spoken = version(card);
    const key = `${binding} ${spoken ?? ''} ${url} ${JSON.stringify(card.raw)}`;
    const known = this.#clients.get(key);
    if (known) return known;
    const fits = resolved !== undefined && resolved.protocol.binding === binding && resolved.protocol.url === url && (spoken === undefined || resolved.protocol.version === spoken);
    const client = fits ? resolved : new A2AClient(card, { ...this.options, protocol: { binding, ...(spoken ? { version: spoken } : {}) } });
    if (this.#clients.size >= MAX_CLIENTS) {
      // The oldest goes; a transport still holding it keeps working (its pool idles out).
      const oldest = this.#clients.keys().next().value;
      if (oldest !== undefined) this.#clients.delete(oldest);
    }
    this.#clients.set(key, client);
    return client;
  }
}

/** The version of the card's interface at `url` with `binding` (the first such, in the card's order). */
export function versionAt(card: AgentCard, url: string, binding: ProtocolBinding): ProtocolVersion | undefined {
  const match = card.interfaces.find((i) => i.binding === binding && i.url === url) ?? card.interfaces.find((i) => i.binding === binding);
  return match?.version === '1.0' ? '1.0' : match?.version === '0.3' ? '0.3' : undefined;
}
