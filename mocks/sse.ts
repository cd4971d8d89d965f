/**
 * SSE writer: turns a list of events into a `text/event-stream` body that flows event by event,
 * with optional gaps, a mid-stream drop (the body errors) or an idle stall (the body stays open).
 */

/** Options of {@link sseBody}. */
export interface SseBodyOptions<T> {
  items: readonly T[];
  /** The JSON payload of one `data:` line. */
  encode: (item: T) => unknown;
  gapMs?: number;
  dropAfter?: number;
  idleAfter?: number;
  /** Called after an item was enqueued. */
  onSent?: (item: T) => void;
  /** Called once with the items that were never sent (drop, idle, or client gone). */
  onUnsent?: (rest: T[]) => void;
  /** The request's signal: aborting it stops timers. */
  signal: AbortSignal;
}

/** Pause before a drop so events already sent reach a prompt reader first. */
const DROP_GRACE_MS = 50;

/** Formats one SSE frame exactly as the official server does: `data: <json>\n\n`. */
export function sseFrame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** Headers of an SSE response. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
};

/** Builds the streaming body. Never throws; a drop errors the stream with `Error('mock: stream dropped')`. */
export function sseBody<T>(o: SseBodyOptions<T>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let index = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  const finishUnsent = (): void => {
    if (settled) return;
    settled = true;
    o.onUnsent?.(o.items.slice(index));
  };
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0) return resolve();
      timer = setTimeout(resolve, ms);
    });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index > 0) await wait(o.gapMs ?? 0);
      if (o.signal.aborted || settled) return;
      if (o.dropAfter !== undefined && index >= o.dropAfter) {
        finishUnsent();
        // Erroring a stream discards chunks still queued downstream (msw tees bodies): give readers a moment.
        await wait(DROP_GRACE_MS);
        if (o.signal.aborted) return;
        controller.error(new Error('mock: stream dropped'));
        return;
      }
      if (o.idleAfter !== undefined && index >= o.idleAfter) {
        finishUnsent();
        return new Promise<void>((resolve) => o.signal.addEventListener('abort', () => resolve(), { once: true }));
      }
      const item = o.items[index];
      if (item === undefined) {
        finishUnsent();
        controller.close();
        return;
      }
      index += 1;
      controller.enqueue(enc.encode(sseFrame(o.encode(item))));
      o.onSent?.(item);
    },
    cancel() {
      clearTimeout(timer);
      finishUnsent();
    },
  });
}
