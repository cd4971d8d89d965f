import { DEFAULT_LIMITS } from '../../src/transport/settings.js';
import { FetchEngine } from '../../src/transport/fetch-engine.js';
import type { AttemptContext } from '../../src/protocol/binding.js';

/** Base URL for mocked agents (msw intercepts; nothing leaves the process). */
export const BASE = 'http://127.0.0.1:4999';

/** An attempt context over the fetch engine with `globalThis.fetch` (patched by msw). */
export function attemptContext(url: string, extra: Partial<AttemptContext> = {}): AttemptContext {
  return {
    engine: new FetchEngine('global'),
    url,
    headers: {},
    timeouts: { connectMs: 5_000, readMs: 5_000, streamIdleMs: 5_000 },
    limits: DEFAULT_LIMITS,
    ...extra,
  };
}

/** An SSE response body from frames (each a `data:` payload, or a raw frame string). */
export function sseBody(frames: Array<unknown>, status = 200): Response {
  const enc = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const f of frames) controller.enqueue(enc.encode(typeof f === 'string' ? f : `data: ${JSON.stringify(f)}\n\n`));
      controller.close();
    },
  });
  return new Response(stream, { status, headers: { 'content-type': 'text/event-stream' } });
}

/** Collects an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A binding's stream of event batches, one event at a time. */
export async function* flat<T>(batches: AsyncIterable<readonly T[]>): AsyncIterable<T> {
  for await (const batch of batches) yield* batch;
}

/** The rejection of a promise (fails if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
