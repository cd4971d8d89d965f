/**
 * Verifying signed agent cards (A2A spec 8.4): each entry of the card's `signatures` is a detached
 * JWS (`protected`, `signature`, optional unprotected `header`) over the canonical card
 * (`card-canonical.ts`). JOSE is the `jose` library's, loaded on first use; nothing here is
 * hand-written crypto. A card passes when at least one signature verifies with a trusted key.
 */
import type { KeyObject, webcrypto } from 'node:crypto';
import { A2AClientError } from '../errors/a2a-client-error.js';
import { cardPayloads, withoutEmpty } from '../protocol/card-canonical.js';
import { parseAgentCard } from '../protocol/card.js';
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

/** Signatures looked at per card: a card with thousands cannot make the client ask for thousands of keys. */
const MAX_SIGNATURES = 16;

/** Algorithms accepted: asymmetric signatures only (`none` and shared-secret HMAC never are). */
const ALGORITHMS: ReadonlySet<string> = new Set(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519']);

type Jose = typeof import('./jose-subset.js').jose;
let loadingJose: Promise<Jose> | undefined;
const jose = (): Promise<Jose> => (loadingJose ??= import('./jose-subset.js').then((m) => m.jose));

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

/** Keys a resolver already answered during one verification, by `kid` and `jku`. */
type KeyCache = Map<string, Promise<CardVerificationKey | undefined>>;

/** The trusted key for `kid`, or why there is none. A resolver is asked once per `kid`/`jku` per card. */
async function keyFor(options: CardSignatureOptions, kid: string, jku: string | undefined, alg: string, cache: KeyCache): Promise<CardVerificationKey | Rejected> {
  let key: CardVerificationKey | undefined;
  const resolve = options.keys;
  if (typeof resolve === 'function') {
    const id = `${kid}\u0000${jku ?? ''}`;
    let found = cache.get(id);
    if (found === undefined) {
      found = Promise.resolve().then(() => resolve(kid, jku));
      cache.set(id, found);
    }
    try {
      key = await found;
    } catch (error) {
      return new Rejected(`looking up key ${JSON.stringify(kid)} failed: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  } else key = resolve.find((k) => k.kid === kid);
  if (key === undefined || key === null) return new Rejected(`key ${JSON.stringify(kid)} is unknown`);
  if (!isKeyObjectOrCryptoKey(key) && key.alg !== undefined && key.alg !== alg) return new Rejected(`key ${JSON.stringify(kid)} is for ${key.alg}, the signature says ${alg}`);
  return key;
}

/** Verifies one signature over any of the payloads; resolves with why not, or the index of the payload it covers. */
async function verifyOne(sig: AgentCardSignature, payloads: readonly Uint8Array[], options: CardSignatureOptions, cache: KeyCache): Promise<Rejected | number> {
  const header = await headerOf(sig);
  if (header instanceof Rejected) return header;
  const key = await keyFor(options, header.kid, header.jku, header.alg, cache);
  if (key instanceof Rejected) return key;
  const { base64url, flattenedVerify } = await jose();
  let last: unknown;
  for (const [index, payload] of payloads.entries()) {
    try {
      const jws = { protected: sig.protected, signature: sig.signature, payload: base64url.encode(payload), ...(sig.header ? { header: sig.header } : {}) };
      await flattenedVerify(jws, key, { algorithms: [header.alg] });
      return index;
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
 * Verifies an agent card's signatures with the trusted keys: it passes when at least one of its first
 * 16 signatures verifies. `card` is a normalised card (its `raw`, the card as served, is what is
 * checked) or the served JSON itself. Resolves with the card exactly as signed — the card as served,
 * or, when a signature covers the card with its empty values removed (as the official signers make
 * it), that card: use the card it returns, so nothing unsigned (an added empty security requirement)
 * is taken from the served one. `connect()` and `refreshCard()` call this when `cardSignature` is
 * set; call it yourself for a card you pass to `new A2AClient(card)`.
 * @throws A2AClientError kind `card`, field `signatures`, whose message names the reason: the card is
 * not signed (when `required`), it holds a value canonical JSON cannot represent, or for each
 * signature why it failed — malformed header, algorithm not accepted, unknown key, key lookup failed,
 * key unfit for the algorithm, or a signature that does not match (a changed card).
 */
export async function verifyAgentCard(card: AgentCard | Record<string, unknown>, options: CardSignatureOptions): Promise<AgentCard> {
  const raw = 'raw' in card && 'interfaces' in card ? card.raw : card;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new A2AClientError({ kind: 'card', message: 'the agent card to verify is not a JSON object', field: '(root)' });
  }
  const json = raw as Record<string, unknown>;
  const asServed = (): AgentCard => ('raw' in card && 'interfaces' in card ? (card as AgentCard) : parseAgentCard(json));
  const signatures = Array.isArray(json['signatures']) ? (json['signatures'] as unknown[]) : [];
  const name = typeof json['name'] === 'string' ? ` of ${JSON.stringify(json['name'].slice(0, 80))}` : '';
  if (signatures.length === 0) {
    if (options.required === false) return asServed();
    throw new A2AClientError({ kind: 'card', message: `the agent card${name} is not signed (no signatures), and cardSignature requires a signature`, field: 'signatures' });
  }
  let payloads: Uint8Array[];
  try {
    payloads = await cardPayloads(json);
  } catch (error) {
    throw new A2AClientError({ kind: 'card', message: `the agent card${name} holds a value canonical JSON (RFC 8785) cannot represent (a lone surrogate), so no signature can cover it`, field: 'signatures', cause: error });
  }
  const reasons: Array<{ path: string; message: string; cause?: unknown }> = [];
  const cache: KeyCache = new Map();
  for (const [i, entry] of signatures.slice(0, MAX_SIGNATURES).entries()) {
    const sig = asSignature(entry);
    const outcome = sig ? await verifyOne(sig, payloads, options, cache) : new Rejected('it is not a { protected, signature } object');
    if (!(outcome instanceof Rejected)) return outcome === 0 ? asServed() : parseAgentCard({ ...(withoutEmpty(json) as Record<string, unknown>), signatures: json['signatures'] });
    reasons.push({ path: `signatures.${i}`, message: outcome.reason, cause: outcome.cause });
  }
  const first = reasons[0];
  const skipped = signatures.length > MAX_SIGNATURES ? ` (${signatures.length - MAX_SIGNATURES} more signatures not looked at)` : '';
  throw new A2AClientError({
    kind: 'card',
    message: `the agent card${name} failed signature verification: ${reasons.map((r) => `signature ${r.path.slice('signatures.'.length)}: ${r.message}`).join('; ')}${skipped}`,
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
