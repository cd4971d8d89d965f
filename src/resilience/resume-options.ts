/**
 * What `resumableStream` is given (its options: the call's sources, deadline, pipeline), and the
 * small things its pieces share about sources.
 */
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AbandonOptions } from './stream-abandon.js';
import type { CallRequests } from '../protocol/agent-requests.js';
import type { ResolvedSendParams, StreamMethod, StreamMethods } from '../protocol/binding.js';
import type { StreamEvent } from '../protocol/model.js';
import { ignoreLate } from '../util/ignore-late.js';
import type { EventSink } from './events.js';
import type { RetryOptions } from './options.js';
import type { Resilience } from './pipeline.js';
import type { CallTrace } from './call-trace.js';
import type { LookupContext } from './send-answers.js';

/**
 * What opens a stream: a streaming call with its parameters, or a `sendMessage` whose one answer is the
 * stream's only batch (an agent that does not stream: a task it leaves unfinished is polled).
 */
export type StreamOpen = { [M in StreamMethod]: { method: M; params: StreamMethods[M] } }[StreamMethod] | { method: 'sendMessage'; params: ResolvedSendParams };

/**
 * What `resumableStream` needs. Its requests (the send, resubscribes, polls) are the call's
 * `CallRequests`, handed down by the client; each gets the stream's scope (caller abort or deadline)
 * and ends when it fails, as bindings do (their request's scope opens inside it); a source's first
 * read is also raced against the scope (it may wait on a headers function). Sources yield events in
 * batches (one per network read), so per-event work stays synchronous.
 */
export interface ResumableStreamOptions extends AbandonOptions {
  agent: string;
  /** `sendStreamingMessage` or `subscribeToTask`. */
  method: string;
  /** Whether `open` may be repeated after an ambiguous failure (see `classify`). */
  idempotent: boolean;
  /** One deadline over the send, every resubscribe, poll and wait (`performance.now()` ms). */
  deadline: number;
  /** The setting `deadline` came from, named in its `deadline-exceeded`. */
  deadlineName?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The call's requests: the send, every resubscribe (`subscribeToTask`) and every poll (`getTask`). */
  requests: CallRequests;
  /**
   * What opens the original stream. Repeated only before its first event, under `resilience`. A
   * `sendMessage` (an agent that does not stream) is never resubscribed: what it leaves unfinished is polled.
   */
  open: StreamOpen;
  /**
   * The agent's pipeline. The send (before the commit point), every resubscribe and every poll go
   * through it: classified, retried, budgeted and cut at the deadline like any call. Without it each
   * is tried once per round.
   */
  resilience?: Resilience | undefined;
  /**
   * Per-call retry override (its backoff also spaces resume rounds and polls; its `maxAttempts`
   * bounds the attempts in a row without news, see `ResumeAttempts`; `false`: no resume at all).
   */
  retry?: false | Partial<RetryOptions> | undefined;
  onEvent?: EventSink | undefined;
  /** The stream's span, when traced: resubscribes are recorded on it, and every call it makes runs in its context. */
  trace?: CallTrace | undefined;
  /**
   * Longest the poll fallback may go without news of the task before giving up, as an idle stream
   * would (the client passes `timeouts.streamIdleMs`).
   * @default 60_000
   */
  maxIdleMs?: number | undefined;
  /**
   * Follow this existing task by polling `getTask` from the start, without opening a source (an agent
   * that does not stream: `A2AClient.resume`). `open` is then never called.
   */
  pollTaskId?: string | undefined;
  /**
   * How the send is looked up when it fails before its first event with its fate unknown
   * (`retry.lookUpSends`, see `lost-send.ts`); `undefined`: the agent cannot be asked (v0.3).
   */
  lookup?: LookupContext | undefined;
}

/** A stream source being read. */
export type Iter = AsyncIterator<StreamEvent[]>;

/** A stream's source, opened, with its first read. */
export interface OpenedSource {
  iterator: Iter;
  first: IteratorResult<StreamEvent[]>;
}

/** Why a stream follows its task by polling from the start ({@link ResumableStreamOptions.pollTaskId}). */
export function pollOnly(): A2AClientError {
  return new A2AClientError({ kind: 'unsupported', message: 'The agent does not stream: the task is followed by polling getTask' });
}

/** Why a stream went over to polling when a resubscribe gave no snapshot and there was no drop before it. */
export function noSnapshot(): A2AClientError {
  return new A2AClientError({ kind: 'connection', reason: 'closed', message: 'The resubscribe sent no Task snapshot first' });
}

/**
 * Closes a source that was superseded or already failed, ignoring how the close ends — a close that
 * throws synchronously included, so it never replaces the failure being reported.
 */
export function closeQuietly(iterator: Iter | undefined): void {
  if (iterator?.return === undefined) return;
  void new Promise((resolve) => resolve(iterator.return?.())).catch(ignoreLate);
}
