import { A2AClientError } from '../errors/a2a-client-error.js';
import type { BodySource } from './body-source.js';
import type { DecodedBatch, EngineRequest, EngineResponse, SseEvent } from './engine.js';
import { normalizeTransportError } from './normalize-error.js';
import { SseFramer } from './sse-reader.js';
import { DecodedReader } from './decoded-reader.js';
import type { CallScope } from './call-scope.js';
import { cleanUpAfterSync } from '../util/clean-up-after.js';
import { readAtMost, type ReadAtMost } from '../util/read-at-most.js';
import { platform } from '../platform/current.js';

/**
 * The {@link EngineResponse} both engines return: the body is read through the request's
 * {@link CallScope} (read / idle timers, deadline, caller abort) and bounded by its limits.
 * Every exit path (end, error, `break`, `close()`) releases the scope and the connection.
 */
export class StreamedResponse implements EngineResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly #source: BodySource;
  readonly #scope: CallScope;
  readonly #request: EngineRequest;
  #framer: SseFramer | undefined;
  #consumed = false;
  #finished = false;

  /** Wraps a response whose headers arrived; the request's scope is owned (disposed) by this object from now on. */
  constructor(init: { status: number; headers: Record<string, string>; source: BodySource; scope: CallScope; request: EngineRequest }) {
    this.status = init.status;
    this.headers = init.headers;
    this.#source = init.source;
    this.#scope = init.scope;
    this.#request = init.request;
  }

  /** The last `id:` seen on this stream so far. */
  get lastEventId(): string | undefined {
    return this.#framer?.lastEventId;
  }

  /**
   * The whole body as UTF-8 text, bounded by `limits.maxResponseBytes` and `timeouts.readMs` per chunk.
   * @throws A2AClientError `invalid-response` (field `body`), `read-timeout`, `deadline-exceeded`, `aborted`, `connection`.
   */
  async text(): Promise<string> {
    const max = this.#request.limits.maxResponseBytes;
    const chunks = await this.#collect(max, true);
    return platform.utf8(platform.concat(chunks));
  }

  /**
   * Reads at most `maxBytes` of the body (for error reports) and releases the rest.
   * @throws A2AClientError as {@link text}, except that oversize is truncated, not an error.
   */
  async readPrefix(maxBytes: number): Promise<Uint8Array> {
    const chunks = await this.#collect(maxBytes, false);
    return platform.concat(chunks).subarray(0, maxBytes);
  }

  /**
   * The body as SSE events decoded by `decode` inside the read loop; see {@link EngineResponse.decoded}.
   * @throws A2AClientError `idle-timeout`, `invalid-response` (field `event`), `deadline-exceeded`,
   * `aborted`, `connection`, or a batch's failure, each through `onError`.
   */
  decoded<T>(decode: (events: readonly SseEvent[]) => DecodedBatch<T>, onError: (error: unknown) => unknown = passOn): AsyncIterableIterator<T[]> {
    this.#claim();
    const framer = new SseFramer(this.#request.limits.maxEventBytes);
    this.#framer = framer;
    const scope = this.#scope;
    return new DecodedReader(
      {
        read: () => this.#read(),
        readError: (error) => this.#readError(error),
        start: () => scope.arm('idle-timeout', this.#request.timeouts.streamIdleMs),
        touch: () => scope.touch(),
        finish: (destroy) => this.#finish(destroy),
      },
      framer,
      decode,
      onError,
    );
  }

  /** Releases the response without reading (the rest of) it. */
  close(): Promise<void> {
    this.#finish(true);
    return Promise.resolve();
  }

  async #collect(maxBytes: number, strict: boolean): Promise<Uint8Array[]> {
    this.#claim();
    let read: ReadAtMost;
    try {
      this.#scope.arm('read-timeout', this.#request.timeouts.readMs);
      read = await readAtMost(() => this.#nextChunk(), maxBytes);
    } catch (error) {
      // Releasing the body must not replace the read's failure.
      cleanUpAfterSync(error, () => this.#finish(true));
      throw error;
    }
    const { chunks, ended } = read;
    this.#finish(!ended);
    if (!ended && strict) {
      throw new A2AClientError({
        kind: 'invalid-response',
        message: `The response body exceeded the ${maxBytes}-byte cap`,
        field: 'body',
        status: this.status,
        headers: this.headers,
        phase: 'after-send',
      });
    }
    return chunks;
  }

  /** The next chunk of a whole-body read (each read, the end included, restarts the read timer). */
  async #nextChunk(): Promise<Uint8Array | undefined> {
    let chunk: Uint8Array | undefined;
    try {
      chunk = await this.#read();
    } catch (error) {
      throw this.#readError(error);
    }
    this.#scope.touch();
    return chunk;
  }

  /** The next chunk; a source that does not stop by itself when the scope fails is raced against it. */
  #read(): Promise<Uint8Array | undefined> {
    return this.#source.watched ? this.#source.next() : this.#scope.race(this.#source.next());
  }

  /** A failed read as an A2AClientError: the scope's failure if it failed, else the transport error. */
  #readError(error: unknown): A2AClientError {
    return this.#scope.failure ?? normalizeTransportError(error, true);
  }

  #claim(): void {
    if (this.#consumed) {
      throw new A2AClientError({ kind: 'invalid-response', message: 'The response body was already read', field: 'body' });
    }
    this.#consumed = true;
  }

  #finish(destroy: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#scope.dispose();
    if (destroy) this.#source.destroy();
  }
}

/** The default `onError` of `decoded`: the error as it is. */
function passOn(error: unknown): unknown {
  return error;
}
