import { ignoreLate } from '../util/ignore-late.js';
import { readAtMost, type ReadAtMost } from '../util/read-at-most.js';

/** A body read within its cap, or why not. */
export type BodyRead = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; status: 413 | 400; reason: string };

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Reads `request`'s body, at most `max` bytes: a `Content-Length` over it is refused before
 * anything is read; a body without one (or lying about it) is counted while it is read and cut off
 * (the rest is never read) as soon as it passes `max`. Why a cap: the sender is a remote peer, and
 * what it can make us buffer must be bounded. Never throws (a body that fails to read is refused).
 */
export async function readBounded(request: Request, max: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > max) {
    request.body?.cancel().catch(ignoreLate);
    return { ok: false, status: 413, reason: `Content-Length ${declared.trim()} over the ${max}-byte limit` };
  }
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  let read: ReadAtMost;
  try {
    read = await readAtMost(async () => {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    }, max);
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    return { ok: false, status: 400, reason: `the body could not be read (${name})` };
  }
  if (!read.ended) {
    reader.cancel().catch(ignoreLate);
    return { ok: false, status: 413, reason: `body over the ${max}-byte limit` };
  }
  return { ok: true, bytes: concat(read.chunks, read.size) };
}
