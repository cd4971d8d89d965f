import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import type { StreamEvent, Task } from '../protocol/model.js';
import { backoffDelay } from './backoff.js';
import { classify } from './classify.js';
import { deadlineError, ignoreLate, openScope, raceSignal, sleep, type CallScope } from './deadline.js';
import { resolveRetry } from './defaults.js';
import { emitEvent, type EventSink } from './events.js';
import type { RetryOptions } from './options.js';
import type { AttemptInfo, Resilience } from './pipeline.js';
import { StreamState } from './stream-state.js';

/**
 * What {@link resumableStream} needs. Sources get the stream's signal (caller abort or deadline) and
 * must end when it fires, as bindings do (their engine watches it); only a source's first read is
 * also raced against the signal (it may wait on a headers function). Sources yield events in batches
 * (one per network read), so per-event work stays synchronous.
 */
export interface ResumableStreamOptions {
  agent: string;
  /** `sendStreamingMessage` or `subscribeToTask`. */
  method: string;
  /** Whether `open` may be repeated after an ambiguous failure (see `classify`). */
  idempotent: boolean;
  /** One deadline over the send, every resubscribe, poll and wait (`performance.now()` ms). */
  deadline: number;
  signal?: AbortSignal | undefined;
  /** Opens the original stream (the send). Repeated only before its first event, under `resilience`. */
  open: (signal: AbortSignal) => AsyncIterable<StreamEvent[]>;
  /** Follows the task again (`SubscribeToTask` / `tasks/resubscribe`); `undefined` when not supported. */
  resubscribe: (taskId: string, signal: AbortSignal) => AsyncIterable<StreamEvent[]> | undefined;
  /** Reads the task, for the poll fallback. */
  getTask: (taskId: string, signal: AbortSignal) => Promise<Task>;
  /** The agent's pipeline: retries the send before the commit point. Without it the send is tried once. */
  resilience?: Resilience | undefined;
  /** Per-call retry override (backoff of resubscribes and polls, `maxAttempts` of the send). */
  retry?: false | Partial<RetryOptions> | undefined;
  onEvent?: EventSink | undefined;
  /**
   * Most resubscribes (or poll rounds) after drops, in a row without a new event.
   * @default 10
   */
  maxResumes?: number | undefined;
}

type Iter = AsyncIterator<StreamEvent[]>;

/**
 * Reads a source while watching `signal` with one listener for the whole stream (not one per read):
 * the read in flight is rejected with the signal's reason when it fires, so a first read stuck on
 * something that ignores the signal is still cut. (Racing each read against one long-lived promise would pile a reaction
 * per read onto that promise, keeping every batch alive until the stream ends.)
 */
function signalledReader(signal: AbortSignal): { read: <T>(it: AsyncIterator<T>) => Promise<IteratorResult<T>>; dispose: () => void } {
  let rejectRead: ((reason: unknown) => void) | undefined;
  const onAbort = (): void => rejectRead?.(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    read<T>(it: AsyncIterator<T>): Promise<IteratorResult<T>> {
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        rejectRead = reject;
        it.next().then(resolve, reject);
      });
    },
    dispose: () => {
      rejectRead = undefined;
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/** Failures after which the stream is resumed: the connection dropped or went quiet. */
function isDrop(error: A2AClientError): boolean {
  return error.kind === 'connection' || error.kind === 'idle-timeout' || error.kind === 'read-timeout';
}

/** Resubscribe is not available: kind `unsupported`, JSON-RPC −32004/−32601, HTTP 404/405/501. */
export function isUnsupported(error: A2AClientError): boolean {
  if (error.kind === 'unsupported') return true;
  if (error.kind === 'json-rpc') return error.code === -32004 || error.code === -32601;
  if (error.kind === 'http') return error.status === 404 || error.status === 405 || error.status === 501;
  return false;
}

function closeQuietly(iterator: Iter | undefined): void {
  const closing = iterator?.return?.();
  if (closing) void closing.catch(ignoreLate);
}

/**
 * Wraps a stream so a drop or idle gap before a terminal state does not lose the task: the first
 * event is the commit point (before it the send is retried like a unary call, after it never
 * repeated); after a drop it resubscribes with backoff within the deadline, turns the task snapshot
 * it receives first into only the updates the caller has not seen (no loss, no duplicate), and polls
 * `getTask` when resubscribe is unsupported. A stream that closes before a terminal state is resumed
 * the same way (when a task id is known).
 * @throws A2AClientError — the send's error (after its retries), a non-drop error of the stream,
 * kind `deadline-exceeded` (cause: the last drop) or `aborted`.
 */
export async function* resumableStream(o: ResumableStreamOptions): AsyncGenerator<StreamEvent[], void, undefined> {
  const scope = openScope(o.deadline, o.signal);
  const reader = signalledReader(scope.signal);
  const read = (it: Iter): Promise<IteratorResult<StreamEvent[]>> => reader.read(it);
  const retry = o.resilience?.retryOptions(o.retry) ?? resolveRetry(undefined, o.retry);
  const maxResumes = o.maxResumes ?? 10;
  const state = new StreamState();
  const fail = (error: A2AClientError): A2AClientError => error.with({ agent: error.agent ?? o.agent, method: error.method ?? o.method });
  let iterator: Iter | undefined;
  let lastDrop: A2AClientError | undefined;
  try {
    const opened = await openFirst(o, scope);
    iterator = opened.iterator;
    let pending: IteratorResult<StreamEvent[]> | undefined = opened.first;
    let fromResubscribe = false;
    let resumes = 0;
    for (;;) {
      try {
        let step = pending ?? (await read(iterator));
        pending = undefined;
        while (step.done !== true) {
          const batch = step.value;
          // The batch itself is delivered unless an event in it is dropped or replaced (copied then).
          let out: StreamEvent[] | undefined;
          for (let i = 0; i < batch.length; i++) {
            const event = batch[i] as StreamEvent;
            if (fromResubscribe && event.kind === 'task') {
              out ??= batch.slice(0, i);
              for (const e of state.snapshot(event)) out.push(e);
            } else if (state.accept(event)) out?.push(event);
            else out ??= batch.slice(0, i);
            fromResubscribe = false;
            if (state.done) {
              out ??= batch.slice(0, i + 1);
              break;
            }
          }
          const deliver = out ?? batch;
          if (deliver.length > 0) {
            resumes = 0;
            yield deliver;
          }
          if (state.done) return;
          // Past its first read a source is our binding's stream, whose engine watches the same signal
          // and deadline: read directly (the first read of each source is raced, above).
          step = await iterator.next();
        }
        if (state.taskId === undefined) return;
        lastDrop = new A2AClientError({ kind: 'connection', reason: 'closed', message: 'The stream closed before the task reached a terminal state' });
      } catch (error) {
        if (scope.signal.aborted) throw stopped(scope, lastDrop, o);
        if (!isA2AClientError(error)) throw error;
        if (fromResubscribe && isUnsupported(error)) {
          yield* poll(o, state, scope, retry, error);
          return;
        }
        if (!isDrop(error) || state.taskId === undefined) throw fail(error);
        lastDrop = error;
      }
      closeQuietly(iterator);
      iterator = undefined;
      resumes++;
      if (resumes > maxResumes) throw fail(lastDrop);
      const delayMs = backoffDelay(resumes, retry);
      if (delayMs >= scope.timeLeft()) throw stopped(scope, lastDrop, o, true);
      emitEvent(o.onEvent, {
        type: 'resubscribe',
        agent: o.agent,
        method: o.method,
        taskId: state.taskId,
        attempt: resumes,
        delayMs,
        reason: lastDrop.kind,
        at: Date.now(),
      });
      try {
        await sleep(delayMs, scope.signal);
      } catch {
        throw stopped(scope, lastDrop, o);
      }
      let source: AsyncIterable<StreamEvent[]> | undefined;
      try {
        source = o.resubscribe(state.taskId, scope.signal);
      } catch (error) {
        if (!isA2AClientError(error) || !isUnsupported(error)) throw error;
      }
      if (!source) {
        yield* poll(o, state, scope, retry, lastDrop);
        return;
      }
      iterator = source[Symbol.asyncIterator]();
      fromResubscribe = true;
    }
  } finally {
    closeQuietly(iterator);
    reader.dispose();
    scope.dispose();
  }
}

/** Opens the original stream and reads its first event, under the pipeline when there is one. */
async function openFirst(o: ResumableStreamOptions, scope: CallScope): Promise<{ iterator: Iter; first: IteratorResult<StreamEvent[]> }> {
  const attempt = async ({ signal }: AttemptInfo): Promise<{ iterator: Iter; first: IteratorResult<StreamEvent[]> }> => {
    const iterator = o.open(scope.signal)[Symbol.asyncIterator]();
    try {
      return { iterator, first: await raceSignal(iterator.next(), signal) };
    } catch (error) {
      closeQuietly(iterator);
      throw error;
    }
  };
  if (!o.resilience) return attempt({ attempt: 1, signal: scope.signal });
  return o.resilience.execute(
    { method: o.method, idempotent: o.idempotent, signal: scope.signal, deadline: o.deadline, retry: o.retry },
    attempt,
  );
}

/** Polls `getTask` with growing intervals until the task is terminal or interrupted, yielding only what is new. */
async function* poll(
  o: ResumableStreamOptions,
  state: StreamState,
  scope: CallScope,
  retry: RetryOptions,
  cause: A2AClientError,
): AsyncGenerator<StreamEvent[], void, undefined> {
  const taskId = state.taskId;
  if (taskId === undefined) throw cause;
  let last = cause;
  const ctx = { method: 'getTask', idempotent: true, options: retry };
  for (let round = 1; ; round++) {
    try {
      const task = await raceSignal(o.getTask(taskId, scope.signal), scope.signal);
      const events = state.snapshot(task);
      if (events.length > 0) yield events;
      if (state.done) return;
    } catch (error) {
      if (scope.signal.aborted) throw stopped(scope, last, o);
      if (!isA2AClientError(error) || !classify(error, ctx).retryable) throw error;
      last = error;
    }
    const delayMs = Math.min(retry.maxDelayMs, retry.baseDelayMs * 1.5 ** (round - 1));
    if (delayMs >= scope.timeLeft()) throw stopped(scope, last, o, true);
    try {
      await sleep(delayMs, scope.signal);
    } catch {
      throw stopped(scope, last, o);
    }
  }
}

/** The error for a stream stopped by the caller's signal or the deadline (`cause`: the last drop). */
function stopped(scope: CallScope, last: A2AClientError | undefined, o: ResumableStreamOptions, noTimeLeft = false): A2AClientError {
  const reason: unknown = scope.signal.reason;
  if (!noTimeLeft && isA2AClientError(reason) && reason.kind === 'aborted') return reason.with({ agent: o.agent, method: o.method });
  return deadlineError(last).with({ agent: o.agent, method: o.method, attempts: last ? [last] : [] });
}
