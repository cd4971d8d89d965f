import { INTERRUPTED_STATES, TERMINAL_STATES, type Artifact, type StreamEvent, type Task, type TaskState, type TaskStatus } from '../protocol/model.js';
import { unitsOf } from '../resilience/delivered-artifact.js';
import { StreamState } from '../resilience/stream-state.js';

/** How far along a state is within one iteration (which ends at a terminal or interrupted state). */
function rankOf(state: TaskState): number {
  if (state === 'submitted') return 0;
  return TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state) ? 2 : 1;
}

function timeOf(status: TaskStatus): number | undefined {
  if (status.timestamp === undefined) return undefined;
  const at = Date.parse(status.timestamp);
  return Number.isNaN(at) ? undefined : at;
}

/** Message ids remembered to drop a repeated Message delivery. */
const MESSAGE_IDS = 64;

/**
 * What one push iteration has delivered of a task, so that deliveries — which an agent may repeat
 * (its retries) or deliver out of order (concurrent retries, a Task read at registration racing the
 * pushes) — yield each chunk once. Built on the streams' own reconciliation, {@link StreamState}:
 * Task snapshots are diffed by position (artifact id, units delivered), never by content; live
 * updates move its positions. Push adds ordering, which a stream gets from its connection:
 * - a status older than the latest one seen is ignored: an earlier state (submitted < working <
 *   terminal or interrupted) or, when both carry one, an earlier `timestamp`; a Task snapshot with such
 *   a status is ignored whole (it is older than what was delivered);
 * - a snapshot whose status is not strictly newer (by timestamp) than the latest leaves an artifact
 *   that is shorter than what was delivered alone: it is an older snapshot, not a replacement;
 * - a Message is delivered once per `messageId`.
 * A byte-identical repeat of a delivery is dropped before it gets here (the receiver's digest check):
 * A2A (before 1.1's `generation`) gives an artifact update no position, so a repeated append could
 * not be told apart here.
 */
export class TaskMirror {
  readonly #stream = new StreamState();
  readonly #units = new Map<string, number>();
  readonly #messages: string[] = [];
  #rank = -1;
  #at: number | undefined;

  /** A terminal or interrupted state (or a Message) was delivered: nothing follows. */
  get done(): boolean {
    return this.#stream.done;
  }

  /** Takes one delivery; returns the events that are new (none for a repeat or an older delivery). */
  take(event: StreamEvent): StreamEvent[] {
    if (this.#stream.done) return [];
    switch (event.kind) {
      case 'message':
        if (this.#messages.includes(event.messageId)) return [];
        this.#messages.push(event.messageId);
        if (this.#messages.length > MESSAGE_IDS) this.#messages.shift();
        this.#stream.accept(event);
        return [event];
      case 'artifact-update':
        this.#stream.accept(event);
        this.#moved(event.artifact, event.append === true);
        return [event];
      case 'status-update': {
        if (this.#older(event.status)) return [];
        const out = this.#stream.snapshot({ kind: 'task', id: event.taskId, contextId: event.contextId, status: event.status, artifacts: [] });
        this.#seen(event.status);
        // The status is news: the update itself goes out (its metadata, `final` and raw kept).
        return out.length > 0 ? [event] : [];
      }
      case 'task':
        return this.#snapshot(event);
    }
  }

  #snapshot(task: Task): StreamEvent[] {
    if (this.#older(task.status)) return [];
    const at = timeOf(task.status);
    const newer = at !== undefined && this.#at !== undefined && at > this.#at;
    const artifacts = newer ? task.artifacts : task.artifacts?.filter((a) => unitsOf(a.parts) >= (this.#units.get(a.artifactId) ?? 0));
    const out = this.#stream.snapshot(artifacts === task.artifacts ? task : { ...task, artifacts });
    this.#seen(task.status);
    for (let i = 0; i < out.length; i++) {
      const item = out[i] as StreamEvent;
      if (item.kind === 'artifact-update') this.#moved(item.artifact, item.append === true);
      // A snapshot's own metadata is its status's outer metadata (a failed task's structured error).
      else if (item.kind === 'status-update' && task.metadata !== undefined) out[i] = { ...item, metadata: task.metadata, raw: task.raw };
    }
    return out;
  }

  #older(status: TaskStatus): boolean {
    const rank = rankOf(status.state);
    if (rank < this.#rank) return true;
    const at = timeOf(status);
    return at !== undefined && this.#at !== undefined && at < this.#at;
  }

  #seen(status: TaskStatus): void {
    this.#rank = Math.max(this.#rank, rankOf(status.state));
    const at = timeOf(status);
    if (at !== undefined && (this.#at === undefined || at > this.#at)) this.#at = at;
  }

  #moved(artifact: Artifact, append: boolean): void {
    const units = unitsOf(artifact.parts);
    this.#units.set(artifact.artifactId, append ? (this.#units.get(artifact.artifactId) ?? 0) + units : units);
  }
}
