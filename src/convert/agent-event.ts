import type { ResponseError } from '../errors/a2a-client-error.js';
import type { Part, TaskState } from '../protocol/model.js';

/**
 * What `invoke` and `stream` produce: one normalised, serialisable event. A remote failure arrives
 * as an event with `error` set, never as a thrown exception.
 */
export interface AgentEvent {
  /** `llm_response_id` when the agent sent one, else the message or artifact id. */
  id: string;
  /** `chat.completion` (a whole answer), `chat.completion.chunk` (a piece of one), `error`, … */
  object: 'chat.completion' | 'chat.completion.chunk' | 'error' | 'task.status' | (string & {});
  /** No more events follow for this call. */
  done: boolean;
  /** This event carries a piece of a larger answer. */
  partial: boolean;
  /**
   * On a chunk: its `text` replaces everything earlier chunks of the same `id` (artifact) carried,
   * instead of following it — the agent replaced the artifact (A2A `append: false`), possibly with
   * nothing (`text: ''`). Absent on a chunk that extends its artifact.
   */
  replace?: true;
  /** The text: a chunk's new text, or on the final event the whole answer (see `accumulate`). */
  text?: string;
  /**
   * On the final event of `stream()` / `resume()`: its `text` is not the whole answer, because the
   * client did not keep it — the answer was longer than the call's `accumulate` (1 MiB of text by
   * default), or the call said `accumulate: false`. The chunks before it carried all of it. `text` is
   * then the final status message's text, if any.
   */
  answerOmitted?: true;
  /** The A2A parts of the message or artifact the event came from (file and data parts too). */
  parts?: Part[];
  /** The failure, when this event reports one ({@link isTerminalError} says whether it ended the call). */
  error?: ResponseError;
  /** The A2A task the event belongs to, once the agent has made one. */
  taskId?: string;
  /** The A2A context (conversation) the event belongs to. */
  contextId?: string;
  /** The task's state when the event was made, e.g. `working`, `input-required`, `completed`. */
  state?: TaskState;
  /** Name of the agent that produced it. */
  agent: string;
  /** The protocol object it came from. */
  raw?: unknown;
}

/**
 * True when the event ends the call with a failure: `error` is set and the event is an error object
 * or the last event.
 */
export function isTerminalError(event: AgentEvent): event is AgentEvent & {
  /** The failure that ended the call. */
  error: ResponseError;
} {
  return event.error !== undefined && (event.object === 'error' || event.done);
}
