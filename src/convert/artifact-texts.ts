/**
 * One artifact's text. Appending concatenates: the engine links the two strings instead of copying
 * them (a rope), so a long stream costs linear time and holds its text once; the text is copied into
 * one flat string only when something reads its characters.
 */
class TextBuffer {
  text = '';

  get length(): number {
    return this.text.length;
  }

  append(piece: string): void {
    this.text += piece;
  }

  set(value: string): void {
    this.text = value;
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
