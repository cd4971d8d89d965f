/**
 * One tool call: a message streamed to the agent, the answer accumulated as it arrives, and one
 * result at the end that a model can read — a remote failure included.
 */
import type { AgentInput } from '../client/input.js';
import type { CallOptions } from '../client/options.js';
import { isTerminalError, type AgentEvent } from '../convert/agent-event.js';
import { responseErrorFromClientError } from '../errors/response-error-from.js';
import { isA2AClientError } from '../errors/a2a-client-error.js';
import { abortedResult, taskOf, toolError, type A2AToolOutput, type A2AToolTask } from './tool-result.js';

/** What a call streams from: an `A2AClient` or one of its `Conversation`s. */
export interface AgentEventSource {
  /** The event API's `stream` (never throws for a remote failure). */
  stream(input: AgentInput, call: CallOptions): AsyncIterable<AgentEvent>;
}

/** The text of an answer as its chunks arrive: per artifact (event `id`), in order of arrival. */
class AnswerText {
  readonly #pieces = new Map<string, string>();

  /** Adds a chunk; true when the text changed. */
  add(event: AgentEvent): boolean {
    const before = this.#pieces.get(event.id);
    const next = event.replace ? (event.text ?? '') : `${before ?? ''}${event.text ?? ''}`;
    this.#pieces.set(event.id, next);
    return next !== before;
  }

  /** Everything received so far. */
  get text(): string {
    return [...this.#pieces.values()].join('');
  }
}

/** The task fields seen so far, the newest winning. */
function mergeTask(seen: A2AToolTask, event: AgentEvent): A2AToolTask {
  return { ...seen, ...taskOf(event) };
}

/**
 * Streams `message` to the agent and yields `A2AToolPartial`s (all text so far, each time it
 * grows), then exactly one `A2AToolResult`: `ok: true` with the whole answer (also for an
 * `input-required` question), `ok: false` for a remote failure (never thrown), or `ok: false` with
 * `error.type: 'aborted'` when `signal` aborted (the client then cancels the task at the agent,
 * `cancelOnAbort`, in the background: nothing here waits for it).
 * @throws only what is not a remote failure (a bug); an `A2AClientError` thrown by the source is
 * turned into a failure result too.
 */
export async function* runAgentCall(source: AgentEventSource, message: string, signal?: AbortSignal): AsyncGenerator<A2AToolOutput, void, undefined> {
  const answer = new AnswerText();
  let task: A2AToolTask = {};
  let final: AgentEvent | undefined;
  try {
    for await (const event of source.stream(message, { cancelOnAbort: true, ...(signal ? { signal } : {}) })) {
      task = mergeTask(task, event);
      if (signal?.aborted) break;
      if (isTerminalError(event)) {
        yield { ok: false, error: toolError(event.error), ...task };
        return;
      }
      if (event.done) {
        final = event;
        break;
      }
      if (event.partial && answer.add(event)) yield { ok: true, partial: true, text: answer.text, ...task };
    }
  } catch (error) {
    if (signal?.aborted) {
      yield abortedResult(signal, task);
      return;
    }
    if (!isA2AClientError(error)) throw error;
    yield { ok: false, error: toolError(responseErrorFromClientError(error)), ...task };
    return;
  }
  if (signal?.aborted) {
    yield abortedResult(signal, task);
    return;
  }
  // A final event without the whole answer (longer than the stream kept): the chunks gathered here are it.
  yield { ok: true, text: final?.answerOmitted === true ? answer.text : (final?.text ?? answer.text), ...task };
}
