import type { SharedStateEvent } from '../resilience/event-types.js';

/**
 * The parts of a node-redis client (`createClient()` from the `redis` package, 5 or 6) the store
 * uses: raw commands, readiness, and a duplicate for pub/sub. Typed structurally so the store's types
 * do not depend on the client's generics.
 */
export interface RedisClientLike {
  /** True while connected and able to run commands. */
  readonly isReady: boolean;
  /** Runs one command, e.g. `['GET', key]`; rejects with the server's error reply or a connection error. */
  sendCommand(args: string[]): Promise<unknown>;
  /** A new client with the same settings (not connected), overriding some of them. */
  duplicate(overrides?: { disableOfflineQueue?: boolean }): RedisSubscriberLike;
}

/** The client the store subscribes with: a duplicate it owns. */
export interface RedisSubscriberLike {
  /** True while connected. */
  readonly isReady: boolean;
  /** Opens the connection; rejects when it cannot. */
  connect(): Promise<unknown>;
  /** Subscribes to a pub/sub channel; `listener` gets each message. */
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** Listens for connection errors (without a listener node-redis would throw them). */
  on(event: 'error', listener: (error: unknown) => void): unknown;
  /** Closes at once, rejecting pending commands. */
  destroy(): unknown;
}

/** Options of {@link redisStateStore}: exactly one of `url` and `client`. */
export interface RedisStateStoreOptions {
  /**
   * The Redis server (`redis://[[user]:password@]host[:port][/db]`, `rediss://` for TLS). The store
   * makes, connects and owns its clients: commands are refused rather than queued while disconnected,
   * and it reconnects with a backoff of at most 2 s for as long as it is open.
   */
  url?: string;
  /**
   * Your node-redis client instead (connected by you, or about to be). The store sends its commands
   * through it while it is ready and never closes it; its reconnection and its `'error'` listener are
   * yours. Pub/sub runs on a duplicate the store owns.
   */
  client?: RedisClientLike;
  /**
   * Prefix of every key and of the pub/sub channel: stores with the same prefix on the same server
   * share state.
   * @default 'a2a:'
   */
  prefix?: string;
  /**
   * How often the store sends this process's counters and reads the fleet's totals and breaker
   * states back (opened breakers are also announced at once by pub/sub).
   * @default 250
   */
  syncIntervalMs?: number;
  /**
   * A Redis that has not answered within this long counts as down: the store reports itself degraded
   * and the process goes on with its own state until Redis answers again.
   * @default 1000
   */
  timeoutMs?: number;
  /**
   * Agents (endpoint origins) whose state the store holds before idle ones are dropped.
   * @default 4096
   */
  maxAgents?: number;
  /** Receives the store's `shared-state` events (`degraded`, `restored`; `agent: '*'`). Clients' `onEvent` get them too. */
  onEvent?: (event: SharedStateEvent) => void;
}

/** The settings a store runs with, defaults applied. */
export interface ResolvedStoreOptions {
  prefix: string;
  syncIntervalMs: number;
  timeoutMs: number;
  maxAgents: number;
}

/**
 * Validates `options` and applies the defaults.
 * @throws TypeError when neither or both of `url` and `client` are given, or a number is not positive.
 */
export function resolveStoreOptions(options: RedisStateStoreOptions): ResolvedStoreOptions {
  if ((options.url === undefined) === (options.client === undefined)) {
    throw new TypeError('redisStateStore: give exactly one of `url` and `client`');
  }
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`redisStateStore: \`${name}\` must be a positive number, got ${value}`);
    return value;
  };
  return {
    prefix: options.prefix ?? 'a2a:',
    syncIntervalMs: positive('syncIntervalMs', options.syncIntervalMs, 250),
    timeoutMs: positive('timeoutMs', options.timeoutMs, 1000),
    maxAgents: positive('maxAgents', options.maxAgents, 4096),
  };
}
