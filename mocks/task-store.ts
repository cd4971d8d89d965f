/**
 * The mock's in-memory task store: the latest snapshot of every task the mock created, the stream
 * events it has not delivered yet (after a drop or idle stall, for `subscribeToTask`), and push configs.
 */
import type { Artifact, StreamEvent, Task } from '../src/protocol/model.js';

interface Entry {
  task: Task;
  pending: StreamEvent[];
  pushConfigs: Map<string, Record<string, unknown>>;
}

/** Tasks created by one mock agent. */
export class TaskStore {
  readonly #entries = new Map<string, Entry>();

  /** The task's current snapshot (a copy), or undefined when unknown. */
  get(id: string): Task | undefined {
    const e = this.#entries.get(id);
    return e ? structuredClone(e.task) : undefined;
  }

  /** Every task, oldest first (copies). */
  list(): Task[] {
    return [...this.#entries.values()].map((e) => structuredClone(e.task));
  }

  /** Stores a snapshot, replacing an older one. */
  put(task: Task): void {
    const prev = this.#entries.get(task.id);
    this.#entries.set(task.id, {
      task: structuredClone(task),
      pending: prev?.pending ?? [],
      pushConfigs: prev?.pushConfigs ?? new Map(),
    });
  }

  /** Applies one stream event that was delivered to the caller. */
  apply(event: StreamEvent): void {
    if (event.kind === 'task') return this.put(event);
    if (event.kind === 'message') return;
    const entry = this.#entries.get(event.taskId);
    if (!entry) return;
    if (event.kind === 'status-update') {
      entry.task.status = structuredClone(event.status);
      if (event.metadata) entry.task.metadata = { ...entry.task.metadata, ...event.metadata };
      return;
    }
    entry.task.artifacts = mergeArtifact(entry.task.artifacts ?? [], event.artifact, event.append === true);
  }

  /** Records events a stream did not deliver (drop / idle), replacing older ones. */
  setPending(taskId: string, events: StreamEvent[]): void {
    const entry = this.#entries.get(taskId);
    if (entry) entry.pending = [...events];
  }

  /** Takes (and clears) the undelivered events of a task. */
  takePending(taskId: string): StreamEvent[] {
    const entry = this.#entries.get(taskId);
    if (!entry) return [];
    const out = entry.pending;
    entry.pending = [];
    return out;
  }

  /** The push configs of a task (live map), or undefined when the task is unknown. */
  pushConfigs(taskId: string): Map<string, Record<string, unknown>> | undefined {
    return this.#entries.get(taskId)?.pushConfigs;
  }
}

function mergeArtifact(list: Artifact[], a: Artifact, append: boolean): Artifact[] {
  const i = list.findIndex((x) => x.artifactId === a.artifactId);
  const copy = structuredClone(a);
  if (i < 0) return [...list, copy];
  const old = list[i];
  const merged = append && old ? { ...old, parts: [...old.parts, ...copy.parts] } : copy;
  return list.map((x, j) => (j === i ? merged : x));
}
