/** Pieces of text joined into one block once this many accumulate. */
const BLOCK = 256;

/**
 * One artifact's text: the latest pieces in a list (an append is a push), joined into a block every
 * {@link BLOCK} pieces, and the blocks concatenated — the engine links long strings instead of copying
 * them (a rope), so each character is copied once however long the stream, a one-character chunk
 * costs no string of its own, and reading the whole text adds no copy of it.
 */
class TextBuffer {
  #pieces: string[] = [];
  /** The text before {@link #pieces}. */
  #joined = '';
  length = 0;

  append(piece: string): void {
    const pieces = this.#pieces;
    pieces.push(piece);
    this.length += piece.length;
    if (pieces.length === BLOCK) {
      this.#joined += pieces.join('');
      pieces.length = 0;
    }
  }

  set(value: string): void {
    this.#pieces = [];
    this.#joined = value;
    this.length = value.length;
  }

  get text(): string {
    const pieces = this.#pieces;
    if (pieces.length > 0) {
      this.#joined += pieces.length === 1 ? (pieces[0] as string) : pieces.join('');
      pieces.length = 0;
    }
    return this.#joined;
  }
}

/**
 * The text of every artifact of one stream, following A2A's `append` rule: an update with
 * `append: true` extends its artifact's text, any other update replaces it. Artifacts keep the
 * order in which they first appeared (a replacement keeps its place, as servers keep it in the task).
 */
export class ArtifactTexts {
  readonly #byId = new Map<string, TextBuffer>();
  /** A stream usually extends one artifact: its buffer is kept at hand. */
  #lastId: string | undefined;
  #last: TextBuffer | undefined;

  /** Applies one update's text to artifact `id`: appended when `append`, else replacing its text. */
  update(id: string, text: string, append: boolean): void {
    const buffer = this.#buffer(id);
    if (append) buffer.append(text);
    else buffer.set(text);
  }

  /** Artifact `id`'s text; `undefined` for an artifact not seen yet. */
  textOf(id: string): string | undefined {
    return id === this.#lastId ? this.#last?.text : this.#byId.get(id)?.text;
  }

  /** The length of artifact `id`'s text; `undefined` for an artifact not seen yet. */
  lengthOf(id: string): number | undefined {
    return id === this.#lastId ? this.#last?.length : this.#byId.get(id)?.length;
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
