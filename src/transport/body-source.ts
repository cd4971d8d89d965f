/**
 * A response body as the shared reading code sees it, whichever engine produced it: pull the next
 * chunk, or destroy the stream (which closes the connection if the body is unread).
 */
export interface BodySource {
  /** The next chunk, or `undefined` at the end. Rejects when the stream fails or is aborted. */
  next(): Promise<Uint8Array | undefined>;
  /** Stops reading and releases the connection. Never throws. */
  destroy(): void;
}

/** A {@link BodySource} over any async iterable of bytes (undici's body `Readable`). */
export function iterableSource(iterable: AsyncIterable<Uint8Array>, destroy: () => void): BodySource {
  const iterator = iterable[Symbol.asyncIterator]();
  return {
    async next() {
      const step = await iterator.next();
      return step.done === true ? undefined : step.value;
    },
    destroy,
  };
}

/** A {@link BodySource} over a WHATWG `ReadableStream` (a fetch body). */
export function webStreamSource(stream: ReadableStream<Uint8Array> | null): BodySource {
  if (stream === null) return { next: () => Promise.resolve(undefined), destroy: () => undefined };
  const reader = stream.getReader();
  let done = false;
  return {
    async next() {
      const step = await reader.read();
      if (step.done) done = true;
      return step.done ? undefined : step.value;
    },
    destroy() {
      if (done) return;
      done = true;
      reader.cancel().catch(() => undefined);
    },
  };
}
