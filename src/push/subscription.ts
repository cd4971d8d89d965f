import type { AgentEvent } from '../convert/agent-event.js';
import type { ConverterContext, EventConverter } from '../convert/converter.js';
import { converterErrorEvent, errorEvent, safeConvert } from '../convert/safe-convert.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import { flatten, type BatchReader } from '../client/flatten.js';
import type { AgentCard, StreamEvent } from '../protocol/model.js';
import { TaskMirror } from './task-mirror.js';

/** Digests of recent deliveries remembered per iteration, to drop an agent's repeat of one. */
const DIGESTS = 256;

/** Why an iteration stopped before its task settled: the receiver closed, a signal fired, its buffer overflowed. */
export class PushStop {
  constructor(readonly event: (agent: string) => AgentEvent) {}
}

/**
 * What a delivery did to an iteration: taken; a repeat (or older) of what it delivered; did not fit
 * (the iteration is stopped); or the iteration was stopped already and takes nothing more.
 */
export type Delivered = 'accepted' | 'repeat' | 'overflow' | 'stopped';

/** Settings of one iteration. */
export interface SubscriptionInit {
  taskId: string;
  agent: string;
  card: AgentCard;
  converter: EventConverter;
  maxBuffered: number;
  /** Called once when the iteration ends, whichever way. */
  onEnd: () => void;
}

/**
 * One `for await` over a task's pushes: deliveries go through its {@link TaskMirror} into a bounded
 * queue; the reader converts them (the converter's rules, as for `stream()`) and ends at a terminal or
 * interrupted state, a break, or a {@link PushStop}. Deliveries may be held (while the Task read at
 * registration is in flight) and are then reconciled after it.
 */
export class PushSubscription {
  readonly taskId: string;
  readonly #init: SubscriptionInit;
  readonly #mirror = new TaskMirror();
  readonly #digests: string[] = [];
  #queue: StreamEvent[] = [];
  #held: StreamEvent[] | undefined;
  #stop: PushStop | undefined;
  #wake: (() => void) | undefined;
  #finished = false;

  constructor(init: SubscriptionInit) {
    this.taskId = init.taskId;
    this.#init = init;
  }

  /** The iteration has ended (its task settled, the reader left, or it was stopped): it takes nothing more. */
  get finished(): boolean {
    return this.#finished || this.#stop !== undefined;
  }

  /** Deliveries are kept aside, unreconciled, until {@link release}. */
  hold(): void {
    this.#held ??= [];
  }

  /** Reconciles `first` (a Task read meanwhile), then what was held. */
  release(first?: StreamEvent): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    if (first) this.#take(first);
    for (const event of held) this.#take(event);
  }

  /**
   * Takes one delivery. `digest` identifies its bytes: a repeat of a recent one that was taken is
   * dropped. Returns `overflow` when it did not fit (the iteration is then stopped with the overflow
   * error), `stopped` when the iteration was stopped before. Only a delivery that was taken is
   * remembered as seen: one that was not (or whose reconciliation threw) is new again when the
   * agent retries it.
   */
  deliver(event: StreamEvent, digest: string): Delivered {
    if (this.#stop !== undefined || (this.#finished && !this.#mirror.done)) return 'stopped';
    if (this.#finished) return 'repeat';
    if (this.#digests.includes(digest)) return 'repeat';
    let outcome: Delivered;
    if (this.#held) {
      if (this.#held.length >= this.#init.maxBuffered) return this.#overflow();
      this.#held.push(event);
      outcome = 'accepted';
    } else outcome = this.#take(event);
    if (outcome === 'accepted' || outcome === 'repeat') {
      this.#digests.push(digest);
      if (this.#digests.length > DIGESTS) this.#digests.shift();
    }
    return outcome;
  }

  /** Ends the iteration after what is queued, with `stop`'s event. */
  stop(stop: PushStop): void {
    if (this.finished) return;
    this.#stop = stop;
    this.#notify();
  }

  #take(event: StreamEvent): Delivered {
    if (this.#mirror.done) return 'repeat';
    const fresh = this.#mirror.take(event);
    if (fresh.length === 0) return 'repeat';
    if (this.#queue.length + fresh.length > this.#init.maxBuffered) return this.#overflow();
    for (const item of fresh) this.#queue.push(item);
    this.#notify();
    return 'accepted';
  }

  #overflow(): Delivered {
    const { maxBuffered, taskId } = this.#init;
    this.stop(
      new PushStop((agent) => ({
        id: `error-${crypto.randomUUID()}`,
        object: 'error',
        done: true,
        partial: false,
        taskId,
        agent,
        error: {
          type: 'overloaded',
          source: 'path',
          code: 'push_buffer_overflow',
          message: `more than ${maxBuffered} push events of task ${taskId} were waiting to be read`,
          retryable: false,
          ambiguous: false,
        },
      })),
    );
    return 'overflow';
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#queue = [];
    this.#held = undefined;
    this.#notify();
    this.#init.onEnd();
  }

  /** Batches of reconciled events, until stopped or returned. */
  #source(): AsyncIterator<readonly StreamEvent[]> {
    const next = async (): Promise<IteratorResult<readonly StreamEvent[]>> => {
      for (;;) {
        if (this.#finished) return { value: undefined, done: true };
        if (this.#queue.length > 0) {
          const batch = this.#queue;
          this.#queue = [];
          return { value: batch, done: false };
        }
        if (this.#stop) {
          const stop = this.#stop;
          this.#finish();
          throw stop;
        }
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
    };
    return {
      next,
      return: async () => {
        this.#finish();
        return { value: undefined, done: true };
      },
    };
  }

  /** The events, converted as `stream()` converts them. */
  events(): AsyncIterable<AgentEvent> {
    const { agent, card, converter } = this.#init;
    const ctx: ConverterContext = { agent, card, state: {} };
    const reader: BatchReader<readonly StreamEvent[], AgentEvent> = {
      read: (batch) => {
        const items: AgentEvent[] = [];
        try {
          for (const item of batch) {
            for (const event of converter.convertStream(item, ctx)) {
              items.push(event);
              if (event.done) return { items, last: true };
            }
          }
        } catch (error) {
          items.push(converterErrorEvent(converter, agent, error));
          return { items, last: true };
        }
        return { items, last: false };
      },
      fail: (error) => {
        if (error instanceof PushStop) return [error.event(agent)];
        if (isA2AClientError(error)) return [errorEvent(error, agent)];
        throw error;
      },
      end: () => (converter.end ? safeConvert(converter, ctx, (c) => c.end?.(ctx) ?? []) : []),
    };
    const source = this.#source();
    return flatten({ [Symbol.asyncIterator]: () => source }, reader);
  }
}
