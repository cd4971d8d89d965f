/**
 * What an agent card signature covers (A2A spec 8.4.1): the card without `signatures`, canonicalised
 * with RFC 8785 (JCS, the `canonicalize` package). Signers differ on one step — dropping "default
 * values" before canonicalising — so two forms are offered, tried in order: the card exactly as
 * served, then the card with empty values (`""`, `null`, `[]`, `{}`) removed at every depth, which
 * is what the official Python and JS SDKs sign. An empty value carries nothing, so a signature over
 * either form vouches for everything the served card says.
 */

/** The RFC 8785 serialiser, loaded on first use (only clients that verify signatures need it). */
type Canonicalize = (value: unknown) => string | undefined;
let loading: Promise<Canonicalize> | undefined;

function canonicalizer(): Promise<Canonicalize> {
  loading ??= import('canonicalize').then((m) => m.default);
  return loading;
}

/** `value` with `""`, `null`, `[]` and `{}` removed at every depth (`undefined` when nothing is left). */
export function withoutEmpty(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    let kept = 0;
    for (const [key, v] of Object.entries(value)) {
      const cleaned = withoutEmpty(v);
      if (cleaned === undefined) continue;
      Object.defineProperty(out, key, { value: cleaned, enumerable: true, writable: true, configurable: true });
      kept++;
    }
    return kept === 0 ? undefined : out;
  }
  return value;
}

/**
 * The payloads a signature of `card` (the card as served, parsed JSON) may cover, as UTF-8 bytes, in
 * the order to try them: JCS of the card without `signatures`, then (when it differs) JCS of that
 * without empty values.
 * @throws Error from the serialiser for a value JCS cannot represent (a lone surrogate).
 */
export async function cardPayloads(card: Record<string, unknown>): Promise<Uint8Array[]> {
  const canonicalize = await canonicalizer();
  const unsigned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(card)) {
    if (key !== 'signatures') Object.defineProperty(unsigned, key, { value, enumerable: true, writable: true, configurable: true });
  }
  const exact = canonicalize(unsigned) ?? '{}';
  const cleaned = canonicalize(withoutEmpty(unsigned) ?? {}) ?? '{}';
  const encoder = new TextEncoder();
  return cleaned === exact ? [encoder.encode(exact)] : [encoder.encode(exact), encoder.encode(cleaned)];
}
