import { AgentState } from './agent-state.js';
import type { SharedStateEvent } from './event-types.js';

/**
 * Where the per-agent resilience state (breaker, retry budget; keyed by endpoint origin) lives. The
 * pipeline reads it synchronously on every call, so an implementation answers from memory; one that
 * shares state across processes (e.g. on Redis) syncs its {@link AgentState}s in the background.
 */
export interface AgentStateStore {
  /** The state of `origin`, created when absent; marks it used. Never throws. */
  get(origin: string): AgentState;
  /** The state of `origin` when present, without creating it or marking it used. */
  peek(origin: string): AgentState | undefined;
  /**
   * Drops the state of `origin` (or of every origin), whatever it holds: its holders notice
   * ({@link AgentState.evicted}) and start afresh.
   */
  evict(origin?: string): void;
  /**
   * A store shared across processes reports its own health here (`shared-state` events with
   * `agent: '*'`); returns the listener's remover. Absent on in-process stores.
   */
  listen?(listener: (event: SharedStateEvent) => void): () => void;
}

/** How many states a sweep may look at to make room for one more (keeps `get` O(1)). */
const SWEEP_LIMIT = 16;

/**
 * The in-process {@link AgentStateStore}, bounded: beyond `maxAgents` origins, a new one replaces an
 * idle state — one not used for a full round of the second-chance (CLOCK) sweep, among those that
 * are evictable (no call in flight, breaker closed or absent). An open or half-open breaker and a state in
 * use are never dropped, so the store may hold more than `maxAgents` while that many are busy or open.
 */
export class MemoryAgentStateStore implements AgentStateStore {
  readonly #states = new Map<string, AgentState>();
  /** Where the next sweep goes on: a live iterator over the map (insertion order is the sweep order). */
  #hand: Iterator<[string, AgentState]> | undefined;
  readonly #maxAgents: number;
  readonly #create: (origin: string) => AgentState;

  /**
   * @param options.maxAgents origins kept before idle ones are dropped (at least 1).
   * @param options.create makes the state of a new origin (a shared store's, synced in the background).
   * @default maxAgents 4096
   */
  constructor(options: { maxAgents?: number; create?: (origin: string) => AgentState } = {}) {
    this.#maxAgents = Math.max(1, Math.floor(options.maxAgents ?? 4096));
    this.#create = options.create ?? ((origin) => new AgentState(origin));
  }

  /** Origins held now. */
  get size(): number {
    return this.#states.size;
  }

  get(origin: string): AgentState {
    let state = this.#states.get(origin);
    if (state !== undefined) {
      state.used = true;
      return state;
    }
    if (this.#states.size >= this.#maxAgents) this.#makeRoom();
    state = this.#create(origin);
    this.#states.set(origin, state);
    return state;
  }

  peek(origin: string): AgentState | undefined {
    return this.#states.get(origin);
  }

  evict(origin?: string): void {
    if (origin === undefined) {
      for (const state of this.#states.values()) state.markEvicted();
      this.#states.clear();
      this.#hand = undefined;
      return;
    }
    this.#states.get(origin)?.markEvicted();
    this.#states.delete(origin);
  }

  /**
   * Moves the hand over at most {@link SWEEP_LIMIT} states, dropping idle ones until there is room;
   * a state given a second chance moves to the back, behind every newer one. The hand is a live
   * iterator kept between calls, so no state is looked at twice before every other one was, and a
   * sweep never rescans the front of the map.
   */
  #makeRoom(): void {
    for (let looked = 0; looked < SWEEP_LIMIT && this.#states.size >= this.#maxAgents; looked++) {
      let next = this.#hand?.next();
      if (next === undefined || next.done === true) {
        this.#hand = this.#states.entries();
        next = this.#hand.next();
        if (next.done === true) return;
      }
      const [origin, state] = next.value;
      this.#states.delete(origin);
      if (state.evictable && !state.used) {
        state.markEvicted();
        continue;
      }
      // Busy, open, or used since the hand last passed: a second chance at the back.
      state.used = false;
      this.#states.set(origin, state);
    }
  }
}

/** The store every client of this process uses. */
export const processAgentStates: AgentStateStore = new MemoryAgentStateStore();
