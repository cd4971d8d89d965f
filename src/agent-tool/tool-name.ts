/**
 * The tool name model providers accept: `[A-Za-z0-9_-]{1,64}` (OpenAI, Anthropic, Bedrock and the
 * AI SDK's own check all take this set), made from the agent card's name.
 */

/** What a provider accepts as a tool name. */
const VALID = /^[A-Za-z0-9_-]{1,64}$/;

/** The longest tool name providers accept. */
const MAX_LENGTH = 64;

/** The name used when nothing of the card's name survives. */
export const FALLBACK_TOOL_NAME = 'a2a_agent';

/**
 * A tool name for the agent called `cardName`: a name that is already valid is kept as is; otherwise
 * accents are dropped (`Café` → `Cafe`), every run of other characters (spaces, punctuation, other
 * scripts) becomes one `_`, repeated `_` collapse, `_` is trimmed from both ends and the result is cut
 * to 64 characters; `a2a_agent` when nothing is left. Deterministic, and applying it twice changes
 * nothing. Never throws.
 * @example toolNameFromCard('Billing Agent (EU)') // 'Billing_Agent_EU'
 */
export function toolNameFromCard(cardName: string): string {
  if (VALID.test(cardName)) return cardName;
  const safe = cardName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_LENGTH)
    .replace(/_+$/, '');
  return safe === '' ? FALLBACK_TOOL_NAME : safe;
}
