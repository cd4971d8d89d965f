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
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The parts of `current` not yet in `emitted`: `[]` when nothing is new, `'replace'` when `emitted`
 * is not a prefix of `current` (the artifact was rewritten). A last text part that grew is sent as
 * its new suffix only.
 */
export function newParts(emitted: readonly Part[], current: readonly Part[]): Part[] | 'replace' {
  if (current.length < emitted.length) return 'replace';
  for (let i = 0; i < emitted.length; i++) {
    const a = emitted[i];
    const b = current[i];
    if (a === undefined || b === undefined) return 'replace';
    if (samePart(a, b)) continue;
    if (i === emitted.length - 1 && a.kind === 'text' && b.kind === 'text' && b.text.startsWith(a.text)) {
      return [{ ...b, text: b.text.slice(a.text.length) }, ...current.slice(i + 1)];
    }
    return 'replace';
  }
  return current.slice(emitted.length);
}

function endsWith(all: readonly Part[], tail: readonly Part[]): boolean {
  if (tail.length === 0 || tail.length > all.length) return false;
  const offset = all.length - tail.length;
  return tail.every((part, i) => {
    const other = all[offset + i];
    return other !== undefined && samePart(other, part);
  });
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
  readonly #artifacts = new Map<string, Part[]>();
  /** Artifacts whose content a snapshot refreshed since their last live chunk. */
  readonly #refreshed = new Set<string>();

  /** Takes a live event; returns what to deliver (the event, or nothing when it is a duplicate). */
  live(event: StreamEvent): StreamEvent[] {
    switch (event.kind) {
      case 'message':
        this.done = true;
        return this.#deliver([event]);
      case 'task':
        this.#ids(event.id, event.contextId);
        this.#seenStatus.add(statusKey(event.status));
        for (const artifact of event.artifacts ?? []) this.#artifacts.set(artifact.artifactId, [...artifact.parts]);
        this.#settle(event.status);
        return this.#deliver([event]);
      case 'status-update': {
        this.#ids(event.taskId, event.contextId);
        const key = statusKey(event.status);
        this.#settle(event.status);
        if (event.final === true) this.done = true;
        if (this.#seenStatus.has(key)) return [];
        this.#seenStatus.add(key);
        return this.#deliver([event]);
      }
      case 'artifact-update': {
        this.#ids(event.taskId, event.contextId);
        const id = event.artifact.artifactId;
        const emitted = this.#artifacts.get(id) ?? [];
        const refreshed = this.#refreshed.delete(id);
        const parts = event.artifact.parts;
        if (event.append === true) {
          if (refreshed && endsWith(emitted, parts)) return [];
          // The stored array is our own copy: extend it in place (a copy per chunk is quadratic).
          if (emitted.length === 0) this.#artifacts.set(id, emitted);
          for (const part of parts) emitted.push(part);
        } else {
          if (refreshed && emitted.length === parts.length && endsWith(emitted, parts)) return [];
          this.#artifacts.set(id, [...parts]);
        }
        return this.#deliver([event]);
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
    this.#artifacts.set(id, [...artifact.parts]);
    this.#refreshed.add(id);
    const base = { kind: 'artifact-update' as const, taskId: task.id, contextId: task.contextId };
    if (emitted === undefined) return artifact.parts.length === 0 ? undefined : { ...base, artifact, append: false };
    const diff = newParts(emitted, artifact.parts);
    if (diff === 'replace') return { ...base, artifact, append: false };
    if (diff.length === 0) return undefined;
    return { ...base, artifact: { ...artifact, parts: diff }, append: true };
  }

  #ids(taskId: string, contextId: string): void {
    this.taskId ??= taskId;
    this.contextId ??= contextId;
  }

  #settle(status: TaskStatus): void {
    if (TERMINAL_STATES.has(status.state) || INTERRUPTED_STATES.has(status.state)) this.done = true;
  }

  #deliver(events: StreamEvent[]): StreamEvent[] {
    this.delivered += events.length;
    return events;
  }
}
