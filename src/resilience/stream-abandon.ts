import { isA2AClientError } from '../errors/a2a-client-error.js';
import type { StreamState } from './stream-state.js';

/** Why a stream's task was abandoned. */
export type AbandonReason = 'aborted' | 'deadline-exceeded' | 'left';

/** The abandon reason a stream's failure gives: the caller's abort or the deadline; other failures abandon nothing. */
export function abandonReason(error: unknown): AbandonReason | undefined {
  if (!isA2AClientError(error)) return undefined;
  return error.kind === 'aborted' || error.kind === 'deadline-exceeded' ? error.kind : undefined;
}

/** What a stream is told about abandoning its task (see `ResumableStreamOptions`). */
export interface AbandonOptions {
  /** The task followed, when known before the first event (a subscribe's id). */
  taskId?: string | undefined;
  /** Told once when the stream ends, its task known and unsettled, because of `reason`; must return at once. */
  onAbandon?: ((taskId: string, reason: AbandonReason) => void) | undefined;
  /** True once the reader took the stream as complete (leaving it then is not abandoning it). */
  completed?: (() => boolean) | undefined;
}

/**
 * Tells `onAbandon` at most once that a stream ends for `reason` while its task — known from the
 * stream or given up front — has not settled and the reader had not taken the stream as complete.
 */
export class Abandonment {
  readonly #o: AbandonOptions;
  #told = false;

  constructor(o: AbandonOptions) {
    this.#o = o;
  }

  /** Whether anyone listens (a stream without a listener needs no failure hook for it). */
  get watched(): boolean {
    return this.#o.onAbandon !== undefined;
  }

  /** The stream ends for `reason` (`undefined`: not an abandonment) with the task where `state` says. */
  tell(reason: AbandonReason | undefined, state: StreamState): void {
    const o = this.#o;
    if (reason === undefined || o.onAbandon === undefined || this.#told) return;
    const taskId = state.taskId ?? o.taskId;
    if (taskId === undefined || state.done || o.completed?.() === true) return;
    this.#told = true;
    o.onAbandon(taskId, reason);
  }
}
