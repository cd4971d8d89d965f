import { emitEvent } from '../resilience/events.js';
import type { SharedStateEvent } from '../resilience/event-types.js';
import type { SharedStateStatus } from '../resilience/shared-state.js';

type Listener = (event: SharedStateEvent) => void;

/**
 * Where a store stands ({@link SharedStateStatus}) and who hears about it. A change to `degraded`
 * and back (`restored`) is one `shared-state` event each, published on the diagnostics channel and
 * given to the store's `onEvent` and to every listener (the pipelines of clients using the store).
 * Reaching `synced` the first time is not an event.
 */
export class StoreStatus {
  #status: SharedStateStatus = 'connecting';
  readonly #listeners = new Set<Listener>();
  readonly #onEvent: Listener | undefined;

  constructor(onEvent?: Listener) {
    this.#onEvent = onEvent;
  }

  get value(): SharedStateStatus {
    return this.#status;
  }

  /** True while state is shared: the fleet's view may be used. */
  get sharing(): boolean {
    return this.#status === 'synced';
  }

  /** Adds a listener; returns its remover. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A sync round completed: `synced` (reported as `restored` when it was degraded). */
  synced(): void {
    if (this.#status === 'synced' || this.#status === 'closed') return;
    const was = this.#status;
    this.#status = 'synced';
    if (was === 'degraded') this.#emit('restored', 'Redis answers again');
  }

  /** Redis is unreachable, failing or slow: `degraded` (reported once per outage). */
  degrade(reason: string): void {
    if (this.#status === 'degraded' || this.#status === 'closed') return;
    this.#status = 'degraded';
    this.#emit('degraded', reason);
  }

  /** The store was closed: nothing is reported any more. */
  close(): void {
    this.#status = 'closed';
    this.#listeners.clear();
  }

  #emit(status: SharedStateEvent['status'], reason: string): void {
    const event: SharedStateEvent = { type: 'shared-state', agent: '*', status, reason, at: Date.now() };
    const onEvent = this.#onEvent;
    emitEvent(onEvent && (() => onEvent(event)), event);
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        // The pipelines' listeners forward through emitEvent, which already catches: this is a backstop.
        process.emitWarning(`a2a-resilient: a shared-state listener threw: ${describeError(error)}`, { code: 'A2A_RESILIENT_ON_EVENT' });
      }
    }
  }
}

/** A short reason for logs from any error value (its message, without a stack). */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
