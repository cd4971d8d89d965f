import type { AnswerLog, ArtifactTexts, SnapshotRelation } from './artifact-texts.js';

/** Characters kept at each end of an artifact's text, to recognise it in a later snapshot. */
const EDGE = 32;

/** One artifact: its length and the first and last {@link EDGE} characters. */
interface Position {
  length: number;
  head: string;
  tail: string;
}

/**
 * What a stream keeps of each artifact's text when it keeps no answer (`accumulate: false`, or an
 * answer longer than the call's bound): its length and a fingerprint
 * of constant size (its first and last {@link EDGE} characters; the last may hold the latest chunk
 * behind it), never the text — so a long answer costs memory for the latest chunk, not for everything so far. Enough to say whether an
 * update replaces an artifact seen before, and whether a Task snapshot still begins with what was
 * seen (by its length and both ends; a replacement that keeps both ends and the length is taken for
 * the same text). The final event gets no accumulated text: {@link joined} is always `''`.
 */
export class ArtifactPositions implements AnswerLog {
  readonly #byId = new Map<string, Position>();
  /** The characters of every artifact's text as it stands (none of them kept). */
  chars = 0;

  /**
   * The positions of texts kept so far, for a stream that stops keeping them (its answer outgrew the
   * call's bound): the fingerprints are copies, so none of those texts stays alive behind them.
   */
  static of(texts: ArtifactTexts): ArtifactPositions {
    const positions = new ArtifactPositions();
    for (const [id, text] of texts.entries()) {
      positions.update(id, text, false);
      const at = positions.#byId.get(id) as Position;
      at.tail = copy(at.tail);
    }
    return positions;
  }

  update(id: string, text: string, append: boolean): void {
    let at = this.#byId.get(id);
    if (at === undefined) {
      at = { length: 0, head: '', tail: '' };
      this.#byId.set(id, at);
    }
    if (!append) {
      this.chars -= at.length;
      at.length = 0;
      at.head = '';
      at.tail = '';
    }
    if (text.length === 0) return;
    at.length += text.length;
    this.chars += text.length;
    // The head is a copy (not a slice), so the first chunk is not retained behind it; it is settled
    // after the first chunks. The tail may be a slice of the latest chunk (an engine may keep it as a
    // view): it holds at most that one chunk, replaced by the next, and copying it on every update
    // cost more than the rest of the update.
    if (at.head.length < EDGE) at.head = copy((at.head + text).slice(0, EDGE));
    at.tail = text.length >= EDGE ? text.slice(-EDGE) : (at.tail + text).slice(-EDGE);
  }

  lengthOf(id: string): number | undefined {
    return this.#byId.get(id)?.length;
  }

  compare(id: string, text: string): SnapshotRelation {
    const at = this.#byId.get(id);
    if (at === undefined) return 'unseen';
    if (text.length < at.length || !text.startsWith(at.head)) return 'replaced';
    return text.slice(at.length - at.tail.length, at.length) === at.tail ? 'extends' : 'replaced';
  }

  joined(): string {
    return '';
  }
}

/**
 * A copy of a short string made of its own characters: an engine may keep a slice as a view into the
 * whole string it came from (V8 does from 13 characters), which would keep a long chunk alive.
 */
function copy(short: string): string {
  return short.split('').join('');
}
