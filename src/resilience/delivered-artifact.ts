import type { Part } from '../protocol/model.js';

/** Units kept at each end of a delivered artifact, to recognise it in a later snapshot. */
const EDGE = 32;

/**
 * The one unit a part other than text counts as in a fingerprint (see {@link unitsOf}): a character
 * of Unicode's private use area picked by a hash of the part's JSON, so a data or file part replaced
 * by another one is told apart. Parts come from the wire: their JSON never fails.
 */
function otherPartUnit(part: Part): string {
  const json = JSON.stringify(part);
  let hash = 0x811c9dc5;
  for (let i = 0; i < json.length; i++) hash = Math.imul(hash ^ json.charCodeAt(i), 0x01000193);
  return String.fromCharCode(0xe000 + ((hash >>> 0) % 6400));
}

/**
 * Content units of `parts`: one per character (UTF-16 code unit) of a text part, one per other
 * part. A position counted in units is the same whether a server keeps every appended chunk as a
 * part of its own (the official SDKs) or merges appended text into one growing part.
 */
export function unitsOf(parts: readonly Part[]): number {
  let units = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    units += part.kind === 'text' ? part.text.length : 1;
  }
  return units;
}

/**
 * The parts of `parts` after its first `units` content units (see {@link unitsOf}): the unseen
 * suffix of a partly delivered text part (with that part's other fields), then every later part.
 * Decided by position only, never by content.
 */
export function partsAfter(parts: readonly Part[], units: number): Part[] {
  let skip = units;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    const size = part.kind === 'text' ? part.text.length : 1;
    if (skip === 0) return parts.slice(i);
    if (skip < size && part.kind === 'text') {
      // Only a text part can be partly delivered (any other part is one unit).
      const rest: Part[] = [{ ...part, text: part.text.slice(skip) }];
      for (let j = i + 1; j < parts.length; j++) rest.push(parts[j] as Part);
      return rest;
    }
    skip -= size;
  }
  return [];
}

/** Units `from` to `to` of `parts` as a string (a part other than text is one {@link otherPartUnit}). */
function unitText(parts: readonly Part[], from: number, to: number): string {
  let out = '';
  let at = 0;
  for (let i = 0; i < parts.length && at < to; i++) {
    const part = parts[i] as Part;
    const text = part.kind === 'text' ? part.text : otherPartUnit(part);
    const end = at + text.length;
    if (end > from) out += text.slice(Math.max(0, from - at), Math.min(text.length, to - at));
    at = end;
  }
  return out;
}

/**
 * What a stream delivered of one artifact: how many content units, and the first and last
 * {@link EDGE} of them — a fingerprint of constant size, so a snapshot can be checked to still
 * begin with what was delivered (an agent may replace an artifact while the client is away)
 * without keeping its content. Positions decide what is new; the fingerprint only tells an
 * extension from a replacement.
 */
export class DeliveredArtifact {
  /** Content units delivered. */
  units = 0;
  #head = '';
  #tail = '';

  /** The artifact was replaced by `parts` (or first delivered as them). */
  replace(parts: readonly Part[]): void {
    this.units = 0;
    this.#head = '';
    this.#tail = '';
    this.extend(parts);
  }

  /** `parts` were appended to the artifact. O(parts), not O(artifact). */
  extend(parts: readonly Part[]): void {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as Part;
      const text = part.kind === 'text' ? part.text : otherPartUnit(part);
      if (text.length === 0) continue;
      this.units += text.length;
      if (this.#head.length < EDGE) this.#head = (this.#head + text).slice(0, EDGE);
      // The tail grows by concatenation and is cut back to its last EDGE units now and then, not per chunk.
      if (text.length >= EDGE) this.#tail = text;
      else {
        this.#tail += text;
        if (this.#tail.length > 4 * EDGE) this.#tail = this.#tail.slice(-EDGE);
      }
    }
  }

  /**
   * True when `parts` (a snapshot of the same artifact) hold at least what was delivered and begin
   * with it, as far as the fingerprint tells: the same first and last delivered units.
   */
  isPrefixOf(parts: readonly Part[]): boolean {
    if (unitsOf(parts) < this.units) return false;
    if (unitText(parts, 0, this.#head.length) !== this.#head) return false;
    const tail = this.#tail.length > EDGE ? this.#tail.slice(-EDGE) : this.#tail;
    return unitText(parts, this.units - tail.length, this.units) === tail;
  }
}
