/**
 * Masking secrets in one string: whole secrets, and the pieces of them a cut (a truncated message or
 * body, V8's JSON snippet) leaves behind.
 */
import { MIN_SECRET_LENGTH } from './secrets.js';

/** The secrets to mask and what replaces them. */
export interface Masking {
  readonly secrets: readonly string[];
  readonly marker: string;
}

/**
 * Where text was cut: our `…` (see `bounded`) and V8's `...` around a JSON snippet. The end of a long
 * string counts as a cut too (a body read up to its size cap).
 */
const CUT = /…|\.\.\."?|"\.\.\./g;

/** A string at least this long may have been cut at its end without a mark (see {@link CUT}). */
const LONG = 1024;

/** The shortest piece of a cut secret that is masked (shorter pieces would match ordinary words). */
const MIN_PIECE = 8;

/**
 * A string with every secret replaced, and every piece of a secret that a cut left behind (a
 * secret's start just before a cut, its end just after one, or a whole stretch between two cuts; at
 * least {@link MIN_PIECE} characters, or all but one of a shorter secret); a string where replacing
 * left a secret (across a marker) becomes the marker.
 */
export function maskText(s: string, w: Masking): string {
  // Pieces first: replacing a whole secret inside a cut one would hide the piece's start.
  let out = s.length >= LONG || s.includes('…') || s.includes('...') ? cutPieces(s, w) : s;
  for (const secret of w.secrets) if (out.includes(secret)) out = out.split(secret).join(w.marker);
  if (out === s) return s;
  return w.secrets.some((secret) => out.includes(secret)) ? w.marker : out;
}

/** `s` with the pieces of secrets at its cuts replaced by the marker (see {@link text}). */
function cutPieces(s: string, w: Masking): string {
  let out = '';
  let from = 0;
  let cutBefore = false;
  for (const m of s.matchAll(CUT)) {
    out += maskPiece(s.slice(from, m.index), cutBefore, true, w) + m[0];
    from = m.index + m[0].length;
    cutBefore = true;
  }
  return out + maskPiece(s.slice(from), cutBefore, s.length >= LONG, w);
}

/**
 * One stretch between cuts: with a cut on both sides, a stretch that lies inside a secret is masked
 * whole; a secret's end at its start (after a cut) and a secret's start at its end (before a cut) are masked.
 */
function maskPiece(piece: string, cutBefore: boolean, cutAfter: boolean, w: Masking): string {
  let head = 0;
  let tail = piece.length;
  for (const secret of w.secrets) {
    const min = Math.max(MIN_SECRET_LENGTH, Math.min(MIN_PIECE, secret.length - 1));
    if (piece.length < min) continue;
    if (cutBefore && cutAfter && piece.length < secret.length && secret.includes(piece)) return w.marker;
    for (let n = Math.min(secret.length - 1, piece.length); cutBefore && n >= min && n > head; n--) {
      if (piece.startsWith(secret.slice(secret.length - n))) head = n;
    }
    for (let n = Math.min(secret.length - 1, piece.length); cutAfter && n >= min && n > piece.length - tail; n--) {
      if (piece.endsWith(secret.slice(0, n))) tail = piece.length - n;
    }
  }
  if (head === 0 && tail === piece.length) return piece;
  if (head >= tail) return w.marker;
  return `${head > 0 ? w.marker : ''}${piece.slice(head, tail)}${tail < piece.length ? w.marker : ''}`;
}
