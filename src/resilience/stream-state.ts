import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type Artifact,
  type Part,
  type StreamEvent,
  type Task,
  type TaskStatus,
} from '../protocol/model.js';

/** The identity of a status: state + timestamp + message id. Two updates with the same key are one update. */
function statusKey(status: TaskStatus): string {
  return `${status.state}|${status.timestamp ?? ''}|${status.message?.messageId ?? ''}`;
}

function samePart(a: Part, b: Part): boolean {
  if (a === b) return true;
  if (a.kind === 'text' && b.kind === 'text' && a.text !== b.text) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Delivered parts kept per artifact for comparing with a snapshot; older ones are only counted. */
export const KEPT_PARTS = 32;

/**
 * What was delivered of one artifact: how many parts, and the last {@link KEPT_PARTS} of them. Memory
 * stays flat however long the stream; a snapshot is checked against the kept tail (an artifact the
 * server rewrote before that tail is not detected as rewritten).
 */
export class DeliveredParts {
  /** Parts delivered so far. */
  count = 0;
  #tail: Part[] = [];

  /** A record of `parts` delivered. */
  static of(parts: readonly Part[]): DeliveredParts {
    const d = new DeliveredParts();
    d.replace(parts);
    return d;
  }

  /** The last delivered parts (at most {@link KEPT_PARTS}), oldest first. */
  get tail(): readonly Part[] {
    return this.#tail.length > KEPT_PARTS ? this.#tail.slice(-KEPT_PARTS) : this.#tail;
  }

  /** Records appended parts. */
  append(parts: readonly Part[]): void {
    this.count += parts.length;
    for (const part of parts) this.#tail.push(part);
    // Trimmed in steps of KEPT_PARTS, so appending stays O(1) per part.
    if (this.#tail.length >= 2 * KEPT_PARTS) this.#tail = this.#tail.slice(-KEPT_PARTS);
  }

  /** Records the artifact's parts as replaced by `parts`. */
  replace(parts: readonly Part[]): void {
    this.count = parts.length;
    this.#tail = parts.slice(-KEPT_PARTS);
  }

  /** True when the last delivered parts are `parts` (a live chunk a snapshot already delivered). */
  endsWith(parts: readonly Part[]): boolean {
    const tail = this.tail;
    if (parts.length === 0 || parts.length > tail.length) return false;
    const offset = tail.length - parts.length;
    return parts.every((part, i) => {
      const other = tail[offset + i];
      return other !== undefined && samePart(other, part);
    });
  }
}

/**
 * The parts of `current` not yet delivered: `[]` when nothing is new, `'replace'` when the delivered
 * parts are not a prefix of `current` (the artifact was rewritten; checked over the kept tail). A last
 * text part that grew is sent as its new suffix only.
 */
export function newParts(delivered: DeliveredParts, current: readonly Part[]): Part[] | 'replace' {
  const count = delivered.count;
  if (current.length < count) return 'replace';
  const tail = delivered.tail;
  const first = count - tail.length;
  for (let i = first; i < count; i++) {
    const a = tail[i - first];
    const b = current[i];
    if (a === undefined || b === undefined) return 'replace';
    if (samePart(a, b)) continue;
    if (i === count - 1 && a.kind === 'text' && b.kind === 'text' && b.text.startsWith(a.text)) {
      return [{ ...b, text: b.text.slice(a.text.length) }, ...current.slice(i + 1)];
    }
    return 'replace';
  }
  return current.slice(count);
}

/**
 * What a resumed stream has already delivered, so a resubscribe's snapshot (or a polled task) yields
 * only what is new: status updates are deduplicated by state + timestamp + message id, artifacts by
 * `artifactId` and their parts so far (appended chunks are compared as a prefix).
 */
export class StreamState {
  taskId: string | undefined;
  contextId: string | undefined;
  /** A terminal or interrupted state (or a Message) was delivered: the stream is complete. */
  done = false;
  /** Events delivered so far. */
  delivered = 0;
  readonly #seenStatus = new Set<string>();
  readonly #artifacts = new Map<string, DeliveredParts>();
  #lastId: string | undefined;
  #lastParts: DeliveredParts | undefined;
  /** Artifacts whose content a snapshot refreshed since their last live chunk. */
  readonly #refreshed = new Set<string>();

  /** Takes a live event; returns what to deliver (the event, or nothing when it is a duplicate). */
  live(event: StreamEvent): StreamEvent[] {
    return this.accept(event) ? [event] : [];
  }

  /** Takes a live event; true when it is to be delivered, false for a duplicate. */
  accept(event: StreamEvent): boolean {
    switch (event.kind) {
      case 'message':
        this.done = true;
        return this.#deliverOne();
      case 'task':
        this.#ids(event.id, event.contextId);
        this.#seenStatus.add(statusKey(event.status));
        for (const artifact of event.artifacts ?? []) this.#replaceArtifact(artifact.artifactId, artifact.parts);
        this.#settle(event.status);
        return this.#deliverOne();
      case 'status-update': {
        this.#ids(event.taskId, event.contextId);
        const key = statusKey(event.status);
        this.#settle(event.status);
        if (event.final === true) this.done = true;
        if (this.#seenStatus.has(key)) return false;
        this.#seenStatus.add(key);
        return this.#deliverOne();
      }
      case 'artifact-update': {
        this.#ids(event.taskId, event.contextId);
        const id = event.artifact.artifactId;
        // A stream usually appends to one artifact: the last one is kept in front of the map.
        let delivered = id === this.#lastId ? this.#lastParts : this.#artifacts.get(id);
        if (delivered === undefined) {
          delivered = new DeliveredParts();
          this.#artifacts.set(id, delivered);
        }
        this.#lastId = id;
        this.#lastParts = delivered;
        const refreshed = this.#refreshed.size > 0 && this.#refreshed.delete(id);
        const parts = event.artifact.parts;
        if (event.append === true) {
          if (refreshed && delivered.endsWith(parts)) return false;
          delivered.append(parts);
        } else {
          if (refreshed && delivered.count === parts.length && delivered.endsWith(parts)) return false;
          delivered.replace(parts);
        }
        return this.#deliverOne();
      }
    }
  }

  /**
   * Takes a task snapshot (from a resubscribe or `getTask`); returns the events that bring the
   * caller up to date: artifact updates first, then the status when it is new.
   */
  snapshot(task: Task): StreamEvent[] {
    this.#ids(task.id, task.contextId);
    const out: StreamEvent[] = [];
    for (const artifact of task.artifacts ?? []) {
      const update = this.#artifactDiff(task, artifact);
      if (update) out.push(update);
    }
    const key = statusKey(task.status);
    if (!this.#seenStatus.has(key)) {
      this.#seenStatus.add(key);
      const terminal = TERMINAL_STATES.has(task.status.state) || INTERRUPTED_STATES.has(task.status.state);
      out.push({ kind: 'status-update', taskId: task.id, contextId: task.contextId, status: task.status, final: terminal });
    }
    this.#settle(task.status);
    return this.#deliver(out);
  }

  #artifactDiff(task: Task, artifact: Artifact): StreamEvent | undefined {
    const id = artifact.artifactId;
    const emitted = this.#artifacts.get(id);
    this.#replaceArtifact(id, artifact.parts);
    this.#refreshed.add(id);
    const base = { kind: 'artifact-update' as const, taskId: task.id, contextId: task.contextId };
    if (emitted === undefined) return artifact.parts.length === 0 ? undefined : { ...base, artifact, append: false };
    const diff = newParts(emitted, artifact.parts);
    if (diff === 'replace') return { ...base, artifact, append: false };
    if (diff.length === 0) return undefined;
    return { ...base, artifact: { ...artifact, parts: diff }, append: true };
  }

  #replaceArtifact(id: string, parts: readonly Part[]): void {
    this.#artifacts.set(id, DeliveredParts.of(parts));
    if (this.#lastId === id) this.#lastId = undefined;
  }

  #ids(taskId: string, contextId: string): void {
    this.taskId ??= taskId;
    this.contextId ??= contextId;
  }

  #settle(status: TaskStatus): void {
    if (TERMINAL_STATES.has(status.state) || INTERRUPTED_STATES.has(status.state)) this.done = true;
  }

  #deliverOne(): true {
    this.delivered++;
    return true;
  }

  #deliver(events: StreamEvent[]): StreamEvent[] {
    this.delivered += events.length;
    return events;
  }
}
