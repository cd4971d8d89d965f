/** Short pieces are gathered and joined into one block once this many accumulate. */
const BLOCK = 256;
/** A piece at least this long is linked into the text as it is (its link costs less than a copy). */
const LINK_LENGTH = 64;

/**
 * One artifact's text, built as a rope: the engine links two long strings instead of copying them,
 * so a long piece (a 400 B or 4 KB chunk) is linked as it arrived, with no copy and no garbage,
 * while short pieces (one-token chunks) are gathered in a list and joined {@link BLOCK} at a time,
 * so none costs a link of its own. Appending is O(1), each character is copied at most once,
 * and reading the whole text adds no copy (the engine flattens it only when its characters are read).
 */
class TextBuffer {
  #short: string[] = [];
  /** The text before {@link #short}. */
  #linked = '';
  length = 0;

  append(piece: string): void {
    this.length += piece.length;
    const short = this.#short;
    if (piece.length >= LINK_LENGTH) {
      if (short.length > 0) this.#flush();
      this.#linked += piece;
      return;
    }
    short.push(piece);
    if (short.length === BLOCK) this.#flush();
  }

  set(value: string): void {
    this.#short = [];
    this.#linked = value;
    this.length = value.length;
  }

  get text(): string {
    if (this.#short.length > 0) this.#flush();
    return this.#linked;
  }

  #flush(): void {
    const short = this.#short;
    this.#linked += short.length === 1 ? (short[0] as string) : short.join('');
    short.length = 0;
  }
}

/** How a snapshot's text of an artifact relates to the text seen so far (see {@link AnswerLog.compare}). */
export type SnapshotRelation = 'unseen' | 'extends' | 'replaced';

/**
 * What a stream's converter records of each artifact's text: {@link ArtifactTexts} keeps the text (the
 * final event's answer), `ArtifactPositions` only lengths and a fingerprint (`accumulate: false`).
 */
export interface AnswerLog {
  /** The characters of every artifact's text as it stands (replaced text no longer counts). */
  readonly chars: number;
  /** Applies one update's text to artifact `id`: appended when `append`, else replacing its text. */
  update(id: string, text: string, append: boolean): void;
  /** The length of artifact `id`'s text; `undefined` for an artifact not seen yet. */
  lengthOf(id: string): number | undefined;
  /** Whether `text` (a snapshot of artifact `id`) begins with what was seen of it. */
  compare(id: string, text: string): SnapshotRelation;
  /** Every artifact's text joined with newlines, empty ones skipped; `''` when texts are not kept. */
  joined(): string;
}

/**
 * The text of every artifact of one stream, following A2A's `append` rule: an update with
 * `append: true` extends its artifact's text, any other update replaces it. Artifacts keep the
 * order in which they first appeared (a replacement keeps its place, as servers keep it in the task).
 */
export class ArtifactTexts implements AnswerLog {
  readonly #byId = new Map<string, TextBuffer>();
  /** A stream usually extends one artifact: its buffer is kept at hand. */
  #lastId: string | undefined;
  #last: TextBuffer | undefined;
  /** The characters of every artifact's text as it stands. */
  chars = 0;

  /** Applies one update's text to artifact `id`: appended when `append`, else replacing its text. */
  update(id: string, text: string, append: boolean): void {
    const buffer = this.#buffer(id);
    if (append) {
      buffer.append(text);
      this.chars += text.length;
    } else {
      this.chars += text.length - buffer.length;
      buffer.set(text);
    }
  }

  /** Every artifact's id and text, in the order they first appeared. */
  *entries(): IterableIterator<[id: string, text: string]> {
    for (const [id, buffer] of this.#byId) yield [id, buffer.text];
  }

  /** Artifact `id`'s text; `undefined` for an artifact not seen yet. */
  textOf(id: string): string | undefined {
    return id === this.#lastId ? this.#last?.text : this.#byId.get(id)?.text;
  }

  /** The length of artifact `id`'s text; `undefined` for an artifact not seen yet. */
  lengthOf(id: string): number | undefined {
    return id === this.#lastId ? this.#last?.length : this.#byId.get(id)?.length;
  }

  /** Whether `text` begins with artifact `id`'s text (compared in full). */
  compare(id: string, text: string): SnapshotRelation {
    const seen = this.textOf(id);
    if (seen === undefined) return 'unseen';
    return text.startsWith(seen) ? 'extends' : 'replaced';
  }

  /** Every artifact's text, joined with newlines, empty ones skipped (the rule of a unary Task's text). */
  joined(): string {
    let out = '';
    for (const buffer of this.#byId.values()) {
      if (buffer.length === 0) continue;
      out = out === '' ? buffer.text : `${out}\n${buffer.text}`;
    }
    return out;
  }

  #buffer(id: string): TextBuffer {
    if (id === this.#lastId && this.#last) return this.#last;
    let buffer = this.#byId.get(id);
    if (!buffer) {
      buffer = new TextBuffer();
      this.#byId.set(id, buffer);
    }
    this.#lastId = id;
    this.#last = buffer;
    return buffer;
  }
}
