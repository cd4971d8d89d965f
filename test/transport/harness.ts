import { DEFAULT_LIMITS } from '../../src/transport/settings.js';
import type { EngineRequest, EngineResponse, HttpEngine, SseEvent } from '../../src/transport/engine.js';
import { FetchEngine } from '../../src/transport/fetch-engine.js';
import { UndiciEngine } from '../../src/transport/undici-engine.js';
import { CallScope } from '../../src/transport/call-scope.js';
import { A2AClientError, isA2AClientError } from '../../src/errors/a2a-client-error.js';

/** Both engines, for `describe.each`. The fetch engine uses Node's own global fetch. */
export const ENGINES: { name: string; make: () => HttpEngine }[] = [
  { name: 'undici', make: () => new UndiciEngine() },
  { name: 'fetch', make: () => new FetchEngine('global') },
];

/**
 * A GET request with generous defaults; `over` replaces fields. A `signal` and a `deadline` become the
 * request's call scope, as the pipeline would open it.
 */
export function req(url: string, over: Partial<EngineRequest> & { signal?: AbortSignal; deadline?: number } = {}): EngineRequest {
  const { signal, deadline, ...rest } = over;
  const request: EngineRequest = {
    method: 'GET',
    url,
    headers: {},
    timeouts: { connectMs: 2_000, readMs: 2_000, streamIdleMs: 2_000 },
    limits: DEFAULT_LIMITS,
    ...rest,
  };
  if (signal !== undefined || deadline !== undefined) request.scope = new CallScope({ signal, deadline });
  return request;
}

/** A response's SSE events one by one, read as the protocol layer reads them (a batch per network read). */
export async function* sseEvents(res: EngineResponse): AsyncGenerator<SseEvent> {
  for await (const batch of res.decoded((events) => ({ items: [...events] }))) yield* batch;
}

/** Runs `fn`, expects an A2AClientError, and returns it with the elapsed milliseconds. */
export async function failure(fn: () => Promise<unknown>): Promise<{ error: A2AClientError; ms: number }> {
  const start = performance.now();
  try {
    await fn();
  } catch (error) {
    const ms = performance.now() - start;
    if (isA2AClientError(error)) return { error, ms };
    throw new Error(`expected an A2AClientError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a failure, got success');
}

/** Number of active `Timeout` resources (for leak checks). */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

/**
 * Active timers once the ones being torn down have left: polls up to `withinMs` (a loaded machine can take
 * longer than a tick to close a handle) and returns the count then — a timer that leaked stays counted.
 */
export async function timersAfterTeardown(atMost: number, withinMs = 1_000): Promise<number> {
  const until = performance.now() + withinMs;
  await settle();
  while (activeTimers() > atMost && performance.now() < until) await settle(20);
  return activeTimers();
}

/** Waits a tick or two so closed handles leave the active list. */
export const settle = (ms = 30) => new Promise<void>((resolve) => setTimeout(resolve, ms));
