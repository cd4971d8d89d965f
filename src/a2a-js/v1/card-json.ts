import { resolvedCards } from '../agent-clients.js';
import type { SdkV1 } from './sdk.js';

/**
 * The card a `ClientFactory` hands a transport, as JSON this SDK reads: a card from
 * `resilientCardResolver` or as served (the official resolver passes cards through unchanged) is used
 * as it is; a card the SDK decoded into its own objects (`AgentCard.fromJSON`, its legacy converter)
 * is encoded back with the SDK's own `AgentCard.toJSON`.
 */
export function cardJsonOf(sdk: SdkV1, card: unknown): unknown {
  if (typeof card !== 'object' || card === null || resolvedCards.has(card)) return card;
  return isDecoded(card) ? sdk.root.AgentCard.toJSON(sdk.root.AgentCard.fromJSON(sdk.root.AgentCard.toJSON(card as never))) : card;
}

/** A decoded card has every repeated field as an array, `skills` items with `securityRequirements`, and no JSON-only shapes. */
function isDecoded(card: object): boolean {
  const c = card as { supportedInterfaces?: unknown; securityRequirements?: unknown; signatures?: unknown };
  return Array.isArray(c.supportedInterfaces) && Array.isArray(c.securityRequirements) && Array.isArray(c.signatures);
}
