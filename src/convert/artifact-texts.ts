/** Pieces of text joined into one block once this many accumulate. */
const BLOCK = 256;

/**
 * One artifact's text, kept as the pieces it arrived in: appending is O(1) and reading joins once,
 * so a long stream costs linear time, and the piece list stays short (pieces are joined in blocks).
 */
class TextBuffer {
  #pieces: string[] = [];
  /** Earlier pieces, joined into blocks of {@link BLOCK}. */
  #blocks: string[] = [];
  length = 0;

  append(piece: string): void {
    const pieces = this.#pieces;
    pieces.push(piece);
    this.length += piece.length;
    if (pieces.length === BLOCK) {
      this.#blocks.push(pieces.join(''));
      pieces.length = 0;
    }
  }

  set(value: string): void {
    this.#blocks = [];
    this.#pieces = value === '' ? [] : [value];
    this.length = value.length;
  }

  /** The whole text (joined once, then kept as one piece). */
  get text(): string {
    if (this.#blocks.length === 0 && this.#pieces.length <= 1) return this.#pieces[0] ?? '';
    const whole = this.#blocks.join('') + this.#pieces.join('');
    this.#blocks = [];
    this.#pieces = [whole];
    return whole;
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
