/**
 * How much of a body is read: the one loop that reads a byte stream up to a cap, for every body a peer
 * sends us (a unary response, the prefix of an error body for its report, a push delivery). Why a
 * cap: the sender is a remote peer, and what it can make us buffer must be bounded. What passing the
 * cap means is the caller's: an error, a truncated report, a 413.
 */

/** What {@link readAtMost} read. */
export interface ReadAtMost {
  /** The chunks in order, the one that passed the cap included. */
  chunks: Uint8Array[];
  /** Their bytes in all. */
  size: number;
  /** True when the stream ended within the cap; false when it passed it (and was not read further). */
  ended: boolean;
}

/**
 * Reads chunks from `next` (`undefined`: the end) until the stream ends or more than `max` bytes
 * have arrived; nothing after the chunk that passes `max` is asked for.
 * @throws whatever `next` throws.
 */
export async function readAtMost(next: () => Promise<Uint8Array | undefined>, max: number): Promise<ReadAtMost> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= max) {
    const chunk = await next();
    if (chunk === undefined) return { chunks, size, ended: true };
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return { chunks, size, ended: false };
}
