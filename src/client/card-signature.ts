/**
 * Verifying signed agent cards (A2A spec 8.4): each entry of the card's `signatures` is a detached
 * JWS (`protected`, `signature`, optional unprotected `header`) over the canonical card
 * (`card-canonical.ts`). JOSE is the `jose` library's, loaded on first use; nothing here is
 * hand-written crypto. A card passes when at least one signature verifies with a trusted key.
 */
import type { KeyObject, webcrypto } from 'node:crypto';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { cardPayloads } from '../protocol/card-canonical.js';
import type { AgentCard, AgentCardSignature } from '../protocol/model.js';

/**
 * A public JSON Web Key (RFC 7517; `kty` is required on the wire, optional here so `jose`'s
 * `exportJWK()` output fits). `kid` is what a signature's header names it by.
 */
export interface CardJwk {
  kty?: string;
  kid?: string;
  /** When set, only signatures with this `alg` are accepted for the key. */
  alg?: string;
  [member: string]: unknown;
}

/** A verification key: a public JWK, or a key object Node or WebCrypto made. */
export type CardVerificationKey = CardJwk | KeyObject | webcrypto.CryptoKey;

/**
 * Finds the key a signature names: its `kid`, and its `jku` (the URL of a JWK Set) when the header
 * has one. Fetching `jku` is the resolver's decision: trust only URLs you expect. Return `undefined`
 * for a key you do not know.
 */
export type CardKeyResolver = (kid: string, jku?: string) => CardVerificationKey | undefined | Promise<CardVerificationKey | undefined>;

/** Option `cardSignature`: verify the agent card's signatures on `connect()` and `refreshCard()`. */
export interface CardSignatureOptions {
  /** The trusted keys: public JWKs matched by `kid`, or a resolver. */
  keys: readonly CardJwk[] | CardKeyResolver;
  /**
   * Refuse a card without signatures. With `false` an unsigned card is accepted, but a signature that
   * is present must still verify.
   * @default true
   */
  required?: boolean;
}

/** Algorithms accepted: asymmetric signatures only (`none` and shared-secret HMAC never are). */
const ALGORITHMS: ReadonlySet<string> = new Set(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519']);

type Jose = typeof import('jose');
let loadingJose: Promise<Jose> | undefined;
const jose = (): Promise<Jose> => (loadingJose ??= import('jose'));

/** Why one signature did not verify. */
class Rejected {
  constructor(
    readonly reason: string,
    readonly cause?: unknown,
  ) {}
}

function isKeyObjectOrCryptoKey(key: CardVerificationKey): key is KeyObject | webcrypto.CryptoKey {
  return typeof key === 'object' && key !== null && 'type' in key && (key.type === 'public' || key.type === 'secret' || key.type === 'private') && !('kty' in key);
}

/** The protected header's `alg`, `kid`, `jku` (kid may come from the unprotected header). */
async function headerOf(sig: AgentCardSignature): Promise<{ alg: string; kid: string; jku?: string } | Rejected> {
  let header: Record<string, unknown>;
  try {
    header = (await jose()).decodeProtectedHeader({ protected: sig.protected }) as Record<string, unknown>;
  } catch (error) {
    return new Rejected('its protected header is not base64url-encoded JSON', error);
  }
  const alg = header['alg'];
  const kid = header['kid'] ?? sig.header?.['kid'];
  const jku = header['jku'];
  if (typeof alg !== 'string') return new Rejected('its protected header has no alg');
  if (!ALGORITHMS.has(alg)) return new Rejected(`algorithm ${JSON.stringify(alg.slice(0, 20))} is not accepted (asymmetric signatures only)`);
  if (typeof kid !== 'string') return new Rejected('its header has no kid');
  return { alg, kid, ...(typeof jku === 'string' ? { jku } : {}) };
}

/** The trusted key for `kid`, or why there is none. */
async function keyFor(options: CardSignatureOptions, kid: string, jku: string | undefined, alg: string): Promise<CardVerificationKey | Rejected> {
  let key: CardVerificationKey | undefined;
  if (typeof options.keys === 'function') {
    try {
      key = await options.keys(kid, jku);
    } catch (error) {
      return new Rejected(`looking up key ${JSON.stringify(kid)} failed: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  } else key = options.keys.find((k) => k.kid === kid);
  if (key === undefined || key === null) return new Rejected(`key ${JSON.stringify(kid)} is unknown`);
  if (!isKeyObjectOrCryptoKey(key) && key.alg !== undefined && key.alg !== alg) return new Rejected(`key ${JSON.stringify(kid)} is for ${key.alg}, the signature says ${alg}`);
  return key;
}

/** Verifies one signature over any of the payloads; resolves with why not, or `undefined` when it verifies. */
async function verifyOne(sig: AgentCardSignature, payloads: readonly Uint8Array[], options: CardSignatureOptions): Promise<Rejected | undefined> {
  const header = await headerOf(sig);
  if (header instanceof Rejected) return header;
  const key = await keyFor(options, header.kid, header.jku, header.alg);
  if (key instanceof Rejected) return key;
  const { base64url, flattenedVerify } = await jose();
  let last: unknown;
  for (const payload of payloads) {
    try {
      const jws = { protected: sig.protected, signature: sig.signature, payload: base64url.encode(payload), ...(sig.header ? { header: sig.header } : {}) };
      await flattenedVerify(jws, key, { algorithms: [header.alg] });
      return undefined;
    } catch (error) {
      last = error;
      const code = (error as { code?: unknown }).code;
      // Only a signature mismatch is worth trying against the other payload form.
      if (code !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') break;
    }
  }
  const code = (last as { code?: unknown }).code;
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return new Rejected('the signature does not match the card (invalid signature or changed card)', last);
  return new Rejected(`key ${JSON.stringify(header.kid)} cannot verify ${header.alg}: ${last instanceof Error ? last.message : String(last)}`, last);
}

/**
 * Verifies an agent card's signatures with the trusted keys: it passes when at least one signature
 * verifies. `card` is a normalised card (its `raw`, the card as served, is what is checked) or the
 * served JSON itself. `connect()` and `refreshCard()` call this when `cardSignature` is set; call it
 * yourself for a card you pass to `new A2AClient(card)`.
 * @throws A2AClientError kind `card`, field `signatures`, whose message names the reason: the card is
 * not signed (when `required`), or for each signature why it failed — malformed header, algorithm not
 * accepted, unknown key, key lookup failed, key unfit for the algorithm, or a signature that does not
 * match (a changed card).
 */
export async function verifyAgentCard(card: AgentCard | Record<string, unknown>, options: CardSignatureOptions): Promise<void> {
  const raw = 'raw' in card && 'interfaces' in card ? card.raw : card;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new A2AClientError({ kind: 'card', message: 'the agent card to verify is not a JSON object', field: '(root)' });
  }
  const json = raw as Record<string, unknown>;
  const signatures = Array.isArray(json['signatures']) ? (json['signatures'] as unknown[]) : [];
  const name = typeof json['name'] === 'string' ? ` of ${JSON.stringify(json['name'].slice(0, 80))}` : '';
  if (signatures.length === 0) {
    if (options.required === false) return;
    throw new A2AClientError({ kind: 'card', message: `the agent card${name} is not signed (no signatures), and cardSignature requires a signature`, field: 'signatures' });
  }
  const payloads = await cardPayloads(json);
  const reasons: Array<{ path: string; message: string; cause?: unknown }> = [];
  for (const [i, entry] of signatures.entries()) {
    const sig = asSignature(entry);
    const outcome = sig ? await verifyOne(sig, payloads, options) : new Rejected('it is not a { protected, signature } object');
    if (outcome === undefined) return;
    reasons.push({ path: `signatures.${i}`, message: outcome.reason, cause: outcome.cause });
  }
  const first = reasons[0];
  throw new A2AClientError({
    kind: 'card',
    message: `the agent card${name} failed signature verification: ${reasons.map((r) => `signature ${r.path.slice('signatures.'.length)}: ${r.message}`).join('; ')}`,
    field: first?.path ?? 'signatures',
    issues: reasons.map(({ path, message }) => ({ path, message })),
    cause: first?.cause,
  });
}

function asSignature(entry: unknown): AgentCardSignature | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { protected: p, signature: s, header: h } = entry as Record<string, unknown>;
  if (typeof p !== 'string' || typeof s !== 'string') return undefined;
  const header = typeof h === 'object' && h !== null && !Array.isArray(h) ? (h as Record<string, unknown>) : undefined;
  return { protected: p, signature: s, ...(header ? { header } : {}) };
}
