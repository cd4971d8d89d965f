import type { Transform } from 'node:stream';
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { BodySource } from './body-source.js';

/** Makes the decoder of one content coding; `head` is the first bytes of its input (to tell variants apart). */
export type DecoderFactory = (head: Uint8Array) => Transform;

/** Bytes of input a {@link DecoderFactory} is shown before the decoder is made (fewer only at the end of the body). */
const HEAD_BYTES = 2;

/** The error of a body its coding cannot decode: corrupt, truncated, or an unknown coding. */
export function contentEncodingError(message: string, cause?: unknown): A2AClientError {
  return new A2AClientError({ kind: 'invalid-response', message, field: 'content-encoding', phase: 'after-send', cause });
}

/**
 * A {@link BodySource} that decodes one content coding (gzip, deflate, br, zstd) of another, pulled:
 * a compressed chunk is read from the body only when the decoder has no output left, and the decoder
 * (a `node:zlib` stream in paused mode, whose output buffer stops it) produces at most one buffer of
 * output (64 KiB) ahead of the reader. So what reaches the reader is counted by its own caps (`maxResponseBytes`,
 * `maxEventBytes`) on the DECODED size, and a compression bomb never holds more than the cap plus one
 * decoder buffer; each chunk's output is handed on as soon as the decoder made it (SSE events arrive
 * one by one when the server flushes them), with no buffering to the end of the body.
 *
 * Failures: a corrupt or truncated stream is `invalid-response` (field `content-encoding`); the body's
 * own failures (a reset, a timer, an abort) pass through unchanged. An empty body decodes to nothing
 * (a 204 or a HEAD answer may carry the header without a byte).
 */
export class DecodingSource implements BodySource {
  readonly #inner: BodySource;
  readonly #create: DecoderFactory;
  readonly #coding: string;
  #decoder: Transform | undefined;
  /** Bytes held until {@link HEAD_BYTES} are there to make the decoder with. */
  #head: Uint8Array | undefined;
  /** A chunk was written and the decoder has not consumed it yet. */
  #writing = false;
  /** The body ended and the decoder was told so. */
  #inputDone = false;
  /** The decoder ended (all output taken). */
  #ended = false;
  #error: Error | undefined;
  #wake: (() => void) | undefined;

  /** `coding` names the coding in errors. */
  constructor(inner: BodySource, coding: string, create: DecoderFactory) {
    this.#inner = inner;
    this.#coding = coding;
    this.#create = create;
  }

  /**
   * As the body it decodes: a scope failure rejects that body's read at once, and a wait on the decoder
   * always ends soon (it only waits on a decoder working on input it already has).
   */
  get watched(): boolean {
    return this.#inner.watched;
  }

  async next(): Promise<Uint8Array | undefined> {
    for (;;) {
      if (this.#error !== undefined) throw this.#error;
      const decoder = this.#decoder;
      if (decoder !== undefined) {
        const out: unknown = decoder.read();
        if (out instanceof Uint8Array) return out;
      }
      if (this.#ended) return undefined;
      // The decoder is busy with input it has: its output, its end or its error comes by itself.
      if (decoder !== undefined && (this.#writing || this.#inputDone)) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        continue;
      }
      let chunk: Uint8Array | undefined;
      try {
        chunk = await this.#inner.next();
      } catch (error) {
        // The decoder failed or ended while the body was read (and released it): that is the outcome.
        if (this.#error !== undefined || this.#ended) continue;
        throw error;
      }
      if (chunk === undefined) this.#endInput();
      else if (chunk.byteLength > 0) this.#write(chunk);
    }
  }

  destroy(): void {
    if (this.#error === undefined && !this.#ended) {
      this.#error = Object.assign(new Error('The response body was released before its end'), { code: 'UND_ERR_ABORTED' });
    }
    this.#decoder?.destroy();
    this.#inner.destroy();
    this.#notify();
  }

  #write(chunk: Uint8Array): void {
    let decoder = this.#decoder;
    if (decoder === undefined) {
      const head = this.#head === undefined ? chunk : Buffer.concat([this.#head, chunk]);
      if (head.byteLength < HEAD_BYTES) {
        this.#head = head;
        return;
      }
      this.#head = undefined;
      decoder = this.#start(head);
      chunk = head;
    }
    this.#writing = true;
    decoder.write(chunk, () => {
      this.#writing = false;
      this.#notify();
    });
  }

  #endInput(): void {
    this.#inputDone = true;
    if (this.#decoder === undefined) {
      const head = this.#head;
      this.#head = undefined;
      // Nothing at all came: an empty body, not a truncated stream.
      if (head === undefined) {
        this.#ended = true;
        return;
      }
      this.#start(head).end(head);
      return;
    }
    this.#decoder.end();
  }

  #start(head: Uint8Array): Transform {
    const decoder = this.#create(head);
    decoder.on('readable', this.#notify);
    decoder.on('end', () => {
      this.#ended = true;
      // The coding's stream ended before the body did (bytes after it): the rest is not read.
      if (!this.#inputDone) this.#inner.destroy();
      this.#notify();
    });
    decoder.on('error', (error: Error) => {
      this.#error ??= contentEncodingError(`The response body is not valid ${this.#coding} (${codeOf(error)})`, error);
      this.#inner.destroy();
      this.#notify();
    });
    this.#decoder = decoder;
    return decoder;
  }

  readonly #notify = (): void => {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  };
}

/** The `code` of a decoder's error (`Z_DATA_ERROR`, `Z_BUF_ERROR` for a truncated stream, …). */
function codeOf(error: Error): string {
  const code: unknown = Reflect.get(error, 'code');
  return typeof code === 'string' ? code : error.message;
}
