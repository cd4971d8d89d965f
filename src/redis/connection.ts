import { createClient } from 'redis';
import type { RedisClientLike, RedisSubscriberLike } from './options.js';
import { describeError } from './status.js';

/** Longest wait between two reconnection attempts (the node-redis default backoff, with its cap kept). */
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * Reconnection delay after `retries` failed attempts: exponential from 50 ms, at most 2 s, with up
 * to 100 ms of jitter so a fleet does not reconnect in step. Never gives up while the store is open.
 */
export function reconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** Math.min(retries, 16), MAX_RECONNECT_DELAY_MS) + Math.floor(Math.random() * 100);
}

/** Called with a short reason whenever a connection fails; must not throw. */
export type FailureSink = (reason: string) => void;

/**
 * The store's Redis connections: the command client (its own, from `url`, or the caller's) and a
 * pub/sub duplicate it always owns. Clients it owns refuse commands while disconnected instead of
 * queueing them (`disableOfflineQueue`), reconnect with {@link reconnectDelay}, and have an `'error'`
 * listener, so a Redis outage is never an unhandled error.
 */
export class Connection {
  readonly client: RedisClientLike;
  readonly #owned: RedisSubscriberLike[] = [];
  readonly #onFailure: FailureSink;
  #closed = false;

  /** @param options exactly one of `url` and `client` (checked by the caller). */
  constructor(options: { url?: string | undefined; client?: RedisClientLike | undefined; connectTimeoutMs: number }, onFailure: FailureSink) {
    this.#onFailure = onFailure;
    if (options.client) {
      this.client = options.client;
      return;
    }
    const own = createClient({
      url: options.url,
      disableOfflineQueue: true,
      socket: { connectTimeout: options.connectTimeoutMs, reconnectStrategy: reconnectDelay },
    });
    this.client = own;
    this.#own(own);
  }

  /**
   * Subscribes to `channel` on a duplicate client (connected now, resubscribed by node-redis after
   * each reconnect). Its failures go to `onLost`, not to the failure sink: the store's health is its
   * command client's, and while pub/sub is away the store's polling still carries every transition.
   */
  subscribe(channel: string, onMessage: (message: string) => void, onLost: () => void): void {
    const subscriber = this.client.duplicate({ disableOfflineQueue: true });
    this.#owned.push(subscriber);
    const lost = (): void => {
      if (!this.#closed) onLost();
    };
    subscriber.on('error', lost);
    subscriber
      .connect()
      .then(() => subscriber.subscribe(channel, onMessage))
      .catch(lost);
  }

  /** Closes the clients the store owns (not the caller's), rejecting what they still had pending. */
  close(): void {
    this.#closed = true;
    for (const client of this.#owned.splice(0)) {
      // One client that fails to close does not keep the others open; its failure is reported like any other.
      try {
        client.destroy();
      } catch (error) {
        this.#onFailure(describeError(error));
      }
    }
  }

  /** Starts an owned client: its errors go to the failure sink, its first connection runs in the background. */
  #own(client: RedisSubscriberLike): void {
    this.#owned.push(client);
    client.on('error', (error) => this.#failed(error));
    client.connect().catch((error: unknown) => this.#failed(error));
  }

  #failed(error: unknown): void {
    if (!this.#closed) this.#onFailure(describeError(error));
  }
}
