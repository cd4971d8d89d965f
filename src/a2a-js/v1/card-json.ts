import type { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { resolvedClients } from '../agent-clients.js';
import type { SdkV1 } from './sdk.js';

/**
 * The card a `ClientFactory` hands a transport, as JSON this SDK reads: a card from
 * `resilientCardResolver` or as served (the official resolver passes a JSON card on unchanged) is used
 * as it is; a card the SDK decoded into its own objects (`AgentCard.fromJSON`, its legacy converter)
 * is encoded back with the SDK's own `AgentCard.toJSON`.
 */
export function cardJsonOf(sdk: SdkV1, card: unknown): unknown {
  if (!isDecoded(card)) return card;
  return sdk.root.AgentCard.toJSON(card);
}

/**
 * A card the SDK decoded: not one `resilientCardResolver` gave, and with every repeated field the
 * decoder always sets as an array (a served card may leave them out).
 */
function isDecoded(card: unknown): card is SdkAgentCard {
  if (typeof card !== 'object' || card === null || resolvedClients.has(card)) return false;
  const c = card as Record<string, unknown>;
  return Array.isArray(c.supportedInterfaces) && Array.isArray(c.securityRequirements) && Array.isArray(c.signatures) && Array.isArray(c.skills);
}
