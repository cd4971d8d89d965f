import {
  INTERRUPTED_STATES,
  TERMINAL_STATES,
  type Artifact,
  type Part,
  type StreamEvent,
  type Task,
  type TaskStatus,
} from '../protocol/model.js';

/**
 * Content units of `parts`: one per character of a text part, one per other part. A position counted
 * in units is the same whether a server keeps every appended chunk as a part of its own (the official
 * SDKs) or merges appended text into one growing part.
 */
export function unitsOf(parts: readonly Part[]): number {
  let units = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    units += part.kind === 'text' ? part.text.length : 1;
  }
  return units;
}

/**
 * The parts of `parts` after its first `units` content units (see {@link unitsOf}): the unseen
 * suffix of a partly delivered text part (with that part's other fields), then every later part.
 * Decided by position only, never by content.
 */
export function partsAfter(parts: readonly Part[], units: number): Part[] {
  let skip = units;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    const size = part.kind === 'text' ? part.text.length : 1;
    if (skip === 0) return parts.slice(i);
    if (skip < size && part.kind === 'text') {
      // Only a text part can be partly delivered (any other part is one unit).
      const rest: Part[] = [{ ...part, text: part.text.slice(skip) }];
      for (let j = i + 1; j < parts.length; j++) rest.push(parts[j] as Part);
      return rest;
    }
    skip -= size;
  }
  return [];
}

/**
 * The identity of a status, to tell a snapshot's status from the one last delivered: state,
 * timestamp, message id, and the message's size (a message that grew under the same id and
 * timestamp is a new status). Errs towards "new": a repeat costs one redundant event, a wrong
 * "same" would lose an update.
 */
function statusKey(status: TaskStatus): string {
  const message = status.message;
  if (!message) return `${status.state}|${status.timestamp ?? ''}`;
  return `${status.state}|${status.timestamp ?? ''}|${message.messageId}|${message.parts.length}|${unitsOf(message.parts)}`;
}

function settles(status: TaskStatus): boolean {
  return TERMINAL_STATES.has(status.state) || INTERRUPTED_STATES.has(status.state);
}

/**
 * What a stream has delivered, as positions, so that a resubscribe's Task snapshot (or a polled task)
 * yields exactly what is new. Per artifact it keeps one number — the content units delivered (see
 * {@link unitsOf}) — never content, so memory stays flat however long the stream, and a chunk that
 * repeats earlier text is never mistaken for a duplicate.
 *
 * Live events are always delivered (the spec sends a resubscribe's snapshot first, then only later
 * updates) and move the positions with A2A's `append` rule: `append: true` extends the artifact,
 * anything else replaces it. A snapshot artifact is reconciled by position: never seen → delivered
 * whole (`append: false`); shorter than what was delivered (the server replaced it) → delivered whole
 * once (`append: false`); longer → only the parts past the position (and the unseen end of a partly
 * delivered text part), `append: true`; the same size → nothing. A replacement during the gap that
 * leaves the artifact at least as long as what was delivered cannot be told from an extension
 * without comparing content, and is taken as one.
 */
export class StreamState {
  taskId: string | undefined;
  contextId: string | undefined;
  /** A terminal or interrupted state (or a Message) was delivered: the stream is complete. */
  done = false;
  /** Events delivered so far. */
  delivered = 0;
  /** Content units delivered per artifact id, except the last updated artifact's (below). */
  readonly #units = new Map<string, number>();
  /** A stream usually extends one artifact: its position is kept out of the map. */
  #lastId: string | undefined;
  #lastUnits = 0;
  /** The identity of the status last delivered ({@link statusKey}; kept as a string, so a caller mutating a delivered event cannot change it). */
  #status: string | undefined;

  /** Records a live event as delivered (a live event is never a duplicate: it is always delivered). */
  accept(event: StreamEvent): void {
    this.delivered++;
    switch (event.kind) {
      case 'message':
        this.done = true;
        return;
      case 'task':
        this.#ids(event.id, event.contextId);
        for (const artifact of event.artifacts ?? []) this.#set(artifact.artifactId, unitsOf(artifact.parts));
        this.#setStatus(event.status);
        return;
      case 'status-update':
        this.#ids(event.taskId, event.contextId);
        this.#setStatus(event.status);
        if (event.final === true) this.done = true;
        return;
      case 'artifact-update': {
        this.#ids(event.taskId, event.contextId);
        const id = event.artifact.artifactId;
        const units = unitsOf(event.artifact.parts);
        if (id !== this.#lastId) this.#focus(id);
        this.#lastUnits = event.append === true ? this.#lastUnits + units : units;
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
    if (settles(task.status)) this.done = true;
    this.delivered += out.length;
    return out;
  }

  #artifactDiff(task: Task, artifact: Artifact): StreamEvent | undefined {
    const id = artifact.artifactId;
    const delivered = id === this.#lastId ? this.#lastUnits : this.#units.get(id);
    const units = unitsOf(artifact.parts);
    if (delivered === units) return undefined;
    this.#set(id, units);
    const base = { kind: 'artifact-update' as const, taskId: task.id, contextId: task.contextId };
    if (delivered === undefined || units < delivered) return { ...base, artifact, append: false };
    return { ...base, artifact: { ...artifact, parts: partsAfter(artifact.parts, delivered) }, append: true };
  }

  /** Makes `id` the last updated artifact (0 units when new), parking the previous one in the map. */
  #focus(id: string): void {
    if (this.#lastId !== undefined) this.#units.set(this.#lastId, this.#lastUnits);
    this.#lastId = id;
    this.#lastUnits = this.#units.get(id) ?? 0;
  }

  #set(id: string, units: number): void {
    if (id === this.#lastId) this.#lastUnits = units;
    else this.#units.set(id, units);
  }

  #setStatus(status: TaskStatus): void {
    this.#status = statusKey(status);
    if (settles(status)) this.done = true;
  }

  #ids(taskId: string, contextId: string): void {
    this.taskId ??= taskId;
    this.contextId ??= contextId;
  }
}
