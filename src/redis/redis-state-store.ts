import { randomUUID } from 'node:crypto';
import { AgentState } from '../resilience/agent-state.js';
import { MemoryAgentStateStore, type AgentStateStore } from '../resilience/agent-state-store.js';
import type { SharedStateEvent } from '../resilience/event-types.js';
import type { SharedStateStatus } from '../resilience/shared-state.js';
import { AgentLink } from './agent-link.js';
import { RedisCommands } from './commands.js';
import { Connection } from './connection.js';
import type { FleetContext } from './fleet-context.js';
import { KeyLayout } from './keys.js';
import { resolveStoreOptions, type RedisStateStoreOptions, type ResolvedStoreOptions } from './options.js';
import { parseBreakerMessage, parseBreakerRecord, parseCount } from './records.js';
import { describeError, StoreStatus } from './status.js';

/**
 * The per-agent state of this process, shared with every process using the same Redis and prefix.
 *
 * Calls only ever touch the local states (a bounded {@link MemoryAgentStateStore} whose states carry
 * an {@link AgentLink}); the store syncs them in the background:
 * - every `syncIntervalMs`, one round (a single pipeline) sends each active agent's counters and
 *   reads back the fleet's budget window and breaker records — at most one round in flight;
 * - breaker transitions are written and published as they happen, and applied as they arrive on the
 *   `<prefix>events` channel;
 * - a round that fails, a connection error, or Redis not answering within `timeoutMs` makes the store
 *   `degraded` (one `shared-state` event): each process goes on with its own state until a round
 *   succeeds again (`restored`), and transitions decided meanwhile are written then.
 */
export class RedisAgentStates implements AgentStateStore {
  readonly #options: ResolvedStoreOptions;
  readonly #status: StoreStatus;
  readonly #connection: Connection;
  readonly #ctx: FleetContext;
  readonly #states: MemoryAgentStateStore;
  readonly #links = new Map<string, AgentLink>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #createdAt = Date.now();
  #replicas = 1;
  #roundStarted = 0;
  #inRound = false;
  #wakeQueued = false;
  #closed = false;

  /** @throws TypeError for invalid options (see {@link resolveStoreOptions}) or a `url` node-redis cannot parse. */
  constructor(options: RedisStateStoreOptions) {
    const resolved = resolveStoreOptions(options);
    this.#options = resolved;
    const status = new StoreStatus(options.onEvent);
    this.#status = status;
    this.#connection = new Connection({ url: options.url, client: options.client, connectTimeoutMs: resolved.timeoutMs }, (reason) =>
      status.degrade(reason),
    );
    const keys = new KeyLayout(resolved.prefix);
    const replicas = (): number => this.#replicas;
    this.#ctx = {
      commands: new RedisCommands(this.#connection.client),
      keys,
      replica: randomUUID(),
      get sharing() {
        return status.sharing;
      },
      timeoutMs: resolved.timeoutMs,
      staleAfterMs: 2 * resolved.syncIntervalMs + resolved.timeoutMs,
      get replicas() {
        return replicas();
      },
      failed: (error) => status.degrade(describeError(error)),
    };
    this.#states = new MemoryAgentStateStore({ maxAgents: resolved.maxAgents, create: (origin) => this.#create(origin) });
    this.#connection.subscribe(keys.channel, (message) => this.#onMessage(message), () => this.#wake());
    this.#timer = setInterval(() => this.#round(), resolved.syncIntervalMs);
    this.#timer.unref();
    this.#wake();
  }

  /** Where the store stands. */
  get status(): SharedStateStatus {
    return this.#status.value;
  }

  get(origin: string): AgentState {
    return this.#states.get(origin);
  }

  peek(origin: string): AgentState | undefined {
    return this.#states.peek(origin);
  }

  evict(origin?: string): void {
    this.#states.evict(origin);
    if (origin === undefined) this.#links.clear();
    else this.#links.delete(origin);
  }

  listen(listener: (event: SharedStateEvent) => void): () => void {
    return this.#status.listen(listener);
  }

  /** Stops syncing and closes the connections the store owns; the local states go on alone. Never rejects. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      clearInterval(this.#timer);
      this.#status.close();
      this.#connection.close();
    }
    return Promise.resolve();
  }

  #create(origin: string): AgentState {
    const link = new AgentLink(this.#ctx, origin);
    const state = new AgentState(origin, link);
    link.state = state;
    this.#links.set(origin, link);
    // A new agent: learn at once whether the fleet has its breaker open.
    this.#wake();
    return state;
  }

  /** A round as soon as possible (coalesced). */
  #wake(): void {
    if (this.#wakeQueued || this.#closed) return;
    this.#wakeQueued = true;
    setImmediate(() => {
      this.#wakeQueued = false;
      this.#round();
    });
  }

  /** Starts one sync round unless one is in flight (then checks it is not overdue). Never throws. */
  #round(): void {
    if (this.#closed) return;
    // Links of states the local store dropped go first, Redis or not: the map stays as bounded as the states.
    for (const [origin, link] of this.#links) if (link.state?.evicted === true) this.#links.delete(origin);
    const now = Date.now();
    if (this.#inRound) {
      if (now - this.#roundStarted > this.#options.timeoutMs) this.#status.degrade(`Redis did not answer within ${this.#options.timeoutMs} ms`);
      return;
    }
    if (!this.#ctx.commands.ready) {
      // The first connection gets `timeoutMs` before it counts as a failure.
      if (this.#status.value !== 'connecting' || now - this.#createdAt > this.#options.timeoutMs) this.#status.degrade('not connected to Redis');
      return;
    }
    this.#inRound = true;
    this.#roundStarted = now;
    this.#sync().then(
      (active) => {
        this.#inRound = false;
        if (this.#closed) return;
        this.#status.synced();
        for (const link of active) {
          link.fleetBreaker?.rewrite();
          link.fleetBreaker?.tick();
        }
      },
      (error: unknown) => {
        this.#inRound = false;
        this.#ctx.failed(error);
      },
    );
  }

  /** One round's commands for every active agent, sent together; resolves with those agents. */
  async #sync(): Promise<AgentLink[]> {
    const active: AgentLink[] = [];
    for (const link of this.#links.values()) if (link.active) active.push(link);
    const work: Promise<unknown>[] = [this.#heartbeat(), ...active.map((link) => link.budget.sync())];
    if (active.length > 0) work.push(this.#readRecords(active));
    await Promise.all(work);
    return active;
  }

  /** Marks this process alive in the fleet and learns how many processes share the store. */
  async #heartbeat(): Promise<void> {
    const { commands, keys, replica, staleAfterMs } = this.#ctx;
    const now = Date.now();
    const alive = await commands.heartbeat(keys.replicas, replica, now, now - staleAfterMs, 2 * staleAfterMs);
    if (alive !== undefined) this.#replicas = alive;
  }

  /**
   * Reads the fleet's breaker records and failure counts of `links` and applies them; foreign data
   * at a record is overwritten (a count that is not one is overwritten by the next failure).
   */
  async #readRecords(links: readonly AgentLink[]): Promise<void> {
    const { keys, commands } = this.#ctx;
    const values = await commands.mget(links.flatMap((link) => [keys.breaker(link.origin), keys.fails(link.origin)]));
    links.forEach((link, i) => {
      link.fresh = false;
      const value = values[2 * i];
      const record = parseBreakerRecord(value);
      // Foreign or corrupt data at the record (unparsable, or an opening dated far in the future) is overwritten.
      if (record ? !link.apply(record) : typeof value === 'string') link.fleetBreaker?.overwrite();
      const fails = parseCount(values[2 * i + 1]);
      if (fails !== undefined) link.fleetFailures(fails);
    });
  }

  /** A transition announced by another process; anything unparsable is ignored. */
  #onMessage(message: string): void {
    const parsed = parseBreakerMessage(message);
    if (parsed === undefined || parsed.by === this.#ctx.replica) return;
    const { origin, ...record } = parsed;
    this.#links.get(origin)?.apply(record);
  }
}
