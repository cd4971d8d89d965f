import { ignoreLate } from '../util/ignore-late.js';
import { readAtMost, type ReadAtMost } from '../util/read-at-most.js';

/** A body read within its cap and its time, or why not. */
export type BodyRead = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; status: 413 | 400 | 408; reason: string };

/** How long a body may take to arrive. */
export interface BodyTimeouts {
  /** The whole body, from the first read. */
  totalMs: number;
  /** The longest gap between two chunks (and before the first). */
  idleMs: number;
}

/** Thrown inside the read loop when a body took too long. */
class BodyTimeout {
  constructor(readonly reason: string) {}
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** One read of `reader`, raced against the body's deadline and the idle gap; the timer is cleared either way. */
async function readBefore(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: number, timeouts: BodyTimeouts): Promise<Uint8Array | undefined> {
  const left = deadline - performance.now();
  if (left <= 0) throw new BodyTimeout(`the body took more than ${timeouts.totalMs} ms`);
  const idle = timeouts.idleMs < left;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeout(idle ? `no body byte for ${timeouts.idleMs} ms` : `the body took more than ${timeouts.totalMs} ms`)), idle ? timeouts.idleMs : left);
  });
  try {
    const { done, value } = await Promise.race([reader.read(), late]);
    return done ? undefined : value;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads `request`'s body, at most `max` bytes within `timeouts`: a `Content-Length` over the cap is
 * refused before anything is read; a body without one (or lying about it) is counted while it is read
 * and cut off (the rest is never read) as soon as it passes `max` (413). A body that does not arrive
 * in time — a sender trickling it byte by byte holds a socket and a pending handler — is cut off too
 * (408). Why: the sender is a remote peer, and what it can make us buffer, and for how long, must be
 * bounded. Never throws (a body that fails to read is refused).
 */
export async function readBounded(request: Request, max: number, timeouts: BodyTimeouts): Promise<BodyRead> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > max) {
    request.body?.cancel().catch(ignoreLate);
    return { ok: false, status: 413, reason: `Content-Length ${declared.trim()} over the ${max}-byte limit` };
  }
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const deadline = performance.now() + timeouts.totalMs;
  let read: ReadAtMost;
  try {
    read = await readAtMost(() => readBefore(reader, deadline, timeouts), max);
  } catch (error) {
    if (error instanceof BodyTimeout) {
      reader.cancel().catch(ignoreLate);
      return { ok: false, status: 408, reason: error.reason };
    }
    const name = error instanceof Error ? error.name : typeof error;
    return { ok: false, status: 400, reason: `the body could not be read (${name})` };
  }
  if (!read.ended) {
    reader.cancel().catch(ignoreLate);
    return { ok: false, status: 413, reason: `body over the ${max}-byte limit` };
  }
  return { ok: true, bytes: concat(read.chunks, read.size) };
}
