import type { RedisCommands } from './commands.js';
import type { KeyLayout } from './keys.js';

/** What the per-agent fleet syncs need from their store. */
export interface FleetContext {
  readonly commands: RedisCommands;
  readonly keys: KeyLayout;
  /** This process's id in the fleet (random per store). */
  readonly replica: string;
  /** True while state is shared: the store is synced with Redis. */
  readonly sharing: boolean;
  /** How long Redis may take to answer before it counts as down (`timeoutMs`). */
  readonly timeoutMs: number;
  /** How long a view of the fleet read from Redis may be used. */
  readonly staleAfterMs: number;
  /** Processes using the store (this one included) as of the last round; at least 1. */
  readonly replicas: number;
  /**
   * A background command failed. The store degrades on a connection failure or timeout; a reply
   * error (foreign data) is the caller's to handle before it gets here. Never throws.
   */
  failed(error: unknown): void;
}
