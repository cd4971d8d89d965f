import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type Artifact,
  type Part,
  type StreamEvent,
  type Task,
  type TaskStatus,
} from '../protocol/model.js';
import { DeliveredArtifact, partsAfter, unitsOf } from './delivered-artifact.js';

/**
 * The identity of a status, to tell a snapshot's status from the one last delivered: state, message
 * id, and the message's size (a message that grew under the same id is a new status). The timestamp
 * is left out: a server that re-stamps an unchanged status at every snapshot has no news. Errs
 * towards "new": a repeat costs one redundant event, a wrong "same" would lose an update.
 */
function statusKey(status: TaskStatus): string {
  const message = status.message;
  if (!message) return status.state;
  return `${status.state}|${message.messageId}|${message.parts.length}|${unitsOf(message.parts)}`;
}

function settles(status: TaskStatus): boolean {
  return TERMINAL_STATES.has(status.state) || INTERRUPTED_STATES.has(status.state);
}

/**
 * What a stream has delivered, as positions, so that a resubscribe's Task snapshot (or a polled task)
 * yields exactly what is new. Per artifact it keeps the content units delivered (see
 * {@link unitsOf}) and a fingerprint of a few units at its start and its end
 * ({@link DeliveredArtifact}) — never the content itself, so memory stays flat however long the
 * stream, and a chunk that repeats earlier text is never mistaken for a duplicate.
 *
 * Live events are always delivered (the spec sends a resubscribe's snapshot first, then only later
 * updates) and move the positions with A2A's `append` rule: `append: true` extends the artifact,
 * anything else replaces it. A snapshot artifact is reconciled by position: never seen → delivered
 * whole (`append: false`); its first delivered units no longer what was delivered (shorter, or
 * replaced while the client was away: the fingerprint differs) → delivered whole once
 * (`append: false`); longer → only the parts past the position (and the unseen end of a partly
 * delivered text part), `append: true`; the same → nothing. A replacement that keeps both ends of
 * what was delivered (only its middle changed) cannot be told from an extension.
 */
export class StreamState {
  taskId: string | undefined;
  contextId: string | undefined;
  /** A terminal or interrupted state (or a Message) was delivered: the stream is complete. */
  done = false;
  /** Events delivered so far. */
  delivered = 0;
  /**
   * Grows whenever what the caller has been given moves on, by the positions kept here — never by
   * comparing events: a new task id, a status with a new identity, artifact content units that were
   * not delivered before, a replaced artifact whose content differs, the end. A live event that
   * repeats what is already known (a re-sent Task, the same status again) leaves it unchanged. Resume
   * rounds compare it to tell a round that brought news from one that did not.
   */
  progress = 0;
  /** What was delivered per artifact id, except the last updated artifact's (below). */
  readonly #artifacts = new Map<string, DeliveredArtifact>();
  /** A stream usually extends one artifact: its record is kept out of the map. */
  #lastId: string | undefined;
  #last: DeliveredArtifact | undefined;
  /** The identity of the status last delivered ({@link statusKey}; kept as a string, so a caller mutating a delivered event cannot change it). */
  #status: string | undefined;

  /** Records a live event as delivered (a live event is never a duplicate: it is always delivered). */
  accept(event: StreamEvent): void {
    this.delivered++;
    switch (event.kind) {
      case 'message':
        this.#end();
        return;
      case 'task':
        this.#ids(event.id, event.contextId);
        for (const artifact of event.artifacts ?? []) this.#replace(artifact.artifactId, artifact.parts);
        this.#setStatus(event.status);
        return;
      case 'status-update':
        this.#ids(event.taskId, event.contextId);
        this.#setStatus(event.status);
        if (event.final === true) this.#end();
        return;
      case 'artifact-update': {
        this.#ids(event.taskId, event.contextId);
        if (event.append !== true) return this.#replace(event.artifact.artifactId, event.artifact.parts);
        const record = this.#record(event.artifact.artifactId);
        const before = record.units;
        record.extend(event.artifact.parts);
        if (record.units !== before) this.progress++;
        return;
      }
    }
  }

  /**
   * Takes a task snapshot (from a resubscribe or `getTask`); returns the events that bring the
   * caller up to date: artifact updates first, then the status when it differs from the last one
   * delivered.
   */
  snapshot(task: Task): StreamEvent[] {
    this.#ids(task.id, task.contextId);
    const out: StreamEvent[] = [];
    for (const artifact of task.artifacts ?? []) {
      const update = this.#artifactDiff(task, artifact);
      if (update) out.push(update);
    }
    const key = statusKey(task.status);
    if (key !== this.#status) {
      this.#status = key;
      out.push({ kind: 'status-update', taskId: task.id, contextId: task.contextId, status: task.status, final: settles(task.status) });
    }
    if (settles(task.status)) this.#end();
    this.delivered += out.length;
    if (out.length > 0) this.progress++;
    return out;
  }

  /**
   * One batch of a live source, as the caller must see it: events applied in order (see
   * {@link accept}), up to the terminal one. When the batch opens a resubscribe (`fromResubscribe`),
   * its first event must be the Task snapshot, which becomes the updates the caller has not seen
   * ({@link snapshot}). Returns the events to deliver (the batch itself when nothing was replaced or
   * cut), or `undefined` when a resubscribe did not start with its snapshot (live events then cannot
   * be placed: the caller polls instead).
   * @throws whatever {@link accept} throws.
   */
  take(batch: StreamEvent[], fromResubscribe: boolean): StreamEvent[] | undefined {
    let out: StreamEvent[] | undefined;
    let expectSnapshot = fromResubscribe;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i] as StreamEvent;
      if (expectSnapshot) {
        if (event.kind !== 'task') return undefined;
        out ??= batch.slice(0, i);
        for (const e of this.snapshot(event)) out.push(e);
        expectSnapshot = false;
      } else {
        this.accept(event);
        out?.push(event);
      }
      if (this.done) {
        out ??= batch.slice(0, i + 1);
        break;
      }
    }
    return out ?? batch;
  }

  #artifactDiff(task: Task, artifact: Artifact): StreamEvent | undefined {
    const known = this.#find(artifact.artifactId);
    const base = { kind: 'artifact-update' as const, taskId: task.id, contextId: task.contextId };
    if (known === undefined || !known.isPrefixOf(artifact.parts)) {
      this.#record(artifact.artifactId).replace(artifact.parts);
      return { ...base, artifact, append: false };
    }
    const delivered = known.units;
    if (unitsOf(artifact.parts) === delivered) return undefined;
    const rest: Part[] = partsAfter(artifact.parts, delivered);
    known.extend(rest);
    return { ...base, artifact: { ...artifact, parts: rest }, append: true };
  }

  #find(id: string): DeliveredArtifact | undefined {
    return id === this.#lastId ? this.#last : this.#artifacts.get(id);
  }

  /** The record of `id` (created empty when new), made the last updated one. */
  #record(id: string): DeliveredArtifact {
    if (id === this.#lastId && this.#last) return this.#last;
    if (this.#lastId !== undefined && this.#last) this.#artifacts.set(this.#lastId, this.#last);
    let record = this.#artifacts.get(id);
    if (record) this.#artifacts.delete(id);
    else record = new DeliveredArtifact();
    this.#lastId = id;
    this.#last = record;
    return record;
  }

  /** A live replacement of an artifact: progress unless it holds exactly what was delivered. */
  #replace(id: string, parts: readonly Part[]): void {
    const known = this.#find(id);
    if (known === undefined || known.units !== unitsOf(parts) || !known.isPrefixOf(parts)) this.progress++;
    this.#record(id).replace(parts);
  }

  #setStatus(status: TaskStatus): void {
    const key = statusKey(status);
    if (key !== this.#status) this.progress++;
    this.#status = key;
    if (settles(status)) this.#end();
  }

  #end(): void {
    if (!this.done) this.progress++;
    this.done = true;
  }

  #ids(taskId: string, contextId: string): void {
    if (this.taskId === undefined) this.progress++;
    this.taskId ??= taskId;
    this.contextId ??= contextId;
  }
}
