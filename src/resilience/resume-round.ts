import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import type { CallScope } from '../transport/call-scope.js';
import { deadlineError } from '../transport/scope-errors.js';
import type { RetryOptions } from './options.js';
import type { RetryPolicy } from './retry-policy.js';
import type { AttemptInfo, Resilience } from './pipeline.js';
import type { StreamEvent } from '../protocol/model.js';
import type { CallTrace } from './call-trace.js';
import type { ResumeAttempts } from './resume-attempts.js';
import { closeQuietly, type OpenedSource, type ResumableStreamOptions, type StreamOpen } from './resume-options.js';
import type { CallRequests } from '../protocol/agent-requests.js';

/** What the calls a resumed stream makes (send, resubscribe, poll) share: agent, deadline, pipeline. */
export interface StreamCall {
  agent: string;
  /** The stream's method, put on its errors when they carry none. */
  method: string;
  /** One deadline over every call and wait (`performance.now()` ms). */
  deadline: number;
  signal?: AbortSignal | undefined;
  resilience?: Resilience | undefined;
  retry?: false | Partial<RetryOptions> | undefined;
  /** The stream's span, when traced: every call it makes is recorded on it and runs in its context. */
  trace?: CallTrace | undefined;
}

/**
 * One call of a stream as the stream counts it (see `ResumeAttempts`): what the pipeline is told,
 * and the attempts it made with their errors.
 */
export interface StreamRound {
  /** At most this many attempts (what the stream has left). */
  readonly maxAttempts: number;
  /** A resubscribe after a failure: charged to the retry budget as a retry. */
  readonly resumeRound: boolean;
  /** The call opens a stream: the breaker hears how it went from the stream. */
  readonly opensStream: boolean;
  /** Attempts started. */
  tries: number;
  /** Errors of the attempts that failed. */
  readonly errors: A2AClientError[];
}

/** A {@link StreamRound} before its first attempt. */
export function streamRound(maxAttempts: number, resumeRound: boolean, opensStream: boolean): StreamRound {
  return { maxAttempts, resumeRound, opensStream, tries: 0, errors: [] };
}

/** Stream sources as {@link openSource} gets them. */
type Open = (scope: CallScope, attempt: number) => AsyncIterable<StreamEvent[]>;

/** The source `open` names, made with the call's requests for one attempt. */
export function sourceOf(requests: CallRequests, open: StreamOpen, scope: CallScope, attempt: number): AsyncIterable<StreamEvent[]> {
  switch (open.method) {
    case 'sendStreamingMessage':
      return requests.stream('sendStreamingMessage', open.params, scope, attempt);
    case 'subscribeToTask':
      return requests.stream('subscribeToTask', open.params, scope, attempt);
    case 'sendMessage': {
      const params = open.params;
      return oneBatch(() => requests.unary('sendMessage', params, scope, attempt));
    }
  }
}

/** One batch holding what `get` resolves with: a unary answer as a stream source. */
function oneBatch(get: () => Promise<StreamEvent>): AsyncIterable<StreamEvent[]> {
  return {
    async *[Symbol.asyncIterator]() {
      yield [await get()];
    },
  };
}

/**
 * Opens a stream and reads its first batch as one call through the pipeline (when there is one), so
 * a failure before the first event is classified and retried like any call; `round` counts its attempts.
 * @throws A2AClientError — the pipeline's final error; kind `unsupported` when `open` has no source.
 */
export async function openSource(o: ResumableStreamOptions, scope: CallScope, method: string, idempotent: boolean, open: Open, round: StreamRound): Promise<OpenedSource> {
  const attempt = async (a: AttemptInfo): Promise<OpenedSource> => {
    const iterator = open(scope, a.attempt)[Symbol.asyncIterator]();
    try {
      return { iterator, first: await scope.race(iterator.next()) };
    } catch (error) {
      closeQuietly(iterator);
      throw error;
    }
  };
  return throughPipeline(o, scope, method, idempotent, attempt, round);
}

/**
 * Runs one call of a stream under the agent's pipeline (classified, retried, budgeted, breaker,
 * deadline), or once under the stream's scope when there is no pipeline; `round` counts its attempts.
 * @throws A2AClientError — the pipeline's final error.
 */
export function throughPipeline<T>(o: StreamCall, scope: CallScope, method: string, idempotent: boolean, attempt: (a: AttemptInfo) => Promise<T>, round?: StreamRound): Promise<T> {
  const counted = round === undefined ? attempt : countAttempts(round, attempt);
  if (!o.resilience) {
    const info: AttemptInfo = { attempt: 1, scope };
    return o.trace ? o.trace.run(() => counted(info)) : counted(info);
  }
  return o.resilience.execute(
    { method, idempotent, scope, deadline: scope.deadline, retry: o.retry, trace: o.trace, opensStream: round?.opensStream, resumeRound: round?.resumeRound, maxAttempts: round?.maxAttempts },
    counted,
  );
}

/** `attempt`, counted in `round`. */
function countAttempts<T>(round: StreamRound, attempt: (a: AttemptInfo) => Promise<T>): (a: AttemptInfo) => Promise<T> {
  return async (a) => {
    round.tries++;
    try {
      return await attempt(a);
    } catch (error) {
      if (isA2AClientError(error)) round.errors.push(error);
      throw error;
    }
  };
}

/**
 * The error of a stream whose deadline or caller stopped a resume round or poll in flight: the
 * round's failed attempts are kept in `attempts` (not counted), the last of them is the cause.
 */
export function stoppedInRound(scope: CallScope, round: StreamRound, attempts: ResumeAttempts, lastDrop: A2AClientError, o: StreamCall): A2AClientError {
  // The attempt the stop itself cut is not a failure of the agent's.
  const failures = round.errors.filter((e) => e.kind !== 'deadline-exceeded' && e.kind !== 'aborted');
  attempts.failed(0, failures);
  return stopped(scope, failures.at(-1) ?? lastDrop, o);
}

/** What a failed resume round or poll asks the policy: the read it would repeat, and its number. */
export interface NextRound {
  method: 'subscribeToTask' | 'getTask';
  next: 'resubscribe' | 'poll';
  /** 1-based number of the round or poll that would come next. */
  attempt: number;
  /** Polls in a row without news (for the poll schedule). */
  quiet?: number | undefined;
}

/**
 * A resume round or poll that failed with `error`: its attempts are counted in `attempts` (at least
 * one: a refusal before any request is one too), then the policy says whether another round comes
 * and after how long ({@link RetryPolicy.roundFailed}). Returns the failure to go on from (a round the
 * budget refused gets `lastDrop`, the failure it was to recover from, as its cause) and the wait.
 * @throws A2AClientError — that failure, as the stream's, when the attempts are spent or the policy
 * says stop.
 */
export function afterFailedRound(
  error: A2AClientError,
  round: StreamRound,
  attempts: ResumeAttempts,
  lastDrop: A2AClientError,
  next: NextRound,
  o: StreamCall,
  policy: RetryPolicy,
  scope: CallScope,
): { last: A2AClientError; delayMs: number } {
  attempts.failed(Math.max(1, round.tries), round.errors.length > 0 ? round.errors : [error]);
  const last = error.kind === 'budget-exhausted' && error.cause === undefined ? new A2AClientError({ ...error.toInit(), cause: lastDrop }) : error;
  if (attempts.spent) throw fail(last, o);
  const decision = policy.roundFailed(last, { ...next, timeLeft: scope.timeLeft() });
  if (!decision.retry) throw fail(last, o);
  return { last, delayMs: decision.delayMs };
}

/** `error` with the stream's agent and method where it names none. */
export function fail(error: A2AClientError, o: StreamCall): A2AClientError {
  return error.with({ agent: error.agent ?? o.agent, method: error.method ?? o.method });
}

/**
 * The error of a stream stopped by the caller's signal (`aborted`) or by the deadline
 * (`deadline-exceeded`, cause: the last failure). `noTimeLeft`: stopped because the next wait would
 * outlive the deadline.
 */
export function stopped(scope: CallScope, last: A2AClientError | undefined, o: StreamCall, noTimeLeft = false): A2AClientError {
  const reason = scope.failure;
  if (!noTimeLeft && reason?.kind === 'aborted') return reason.with({ agent: o.agent, method: o.method });
  return deadlineError(last, scope.deadlineName).with({ agent: o.agent, method: o.method, attempts: last ? [last] : [] });
}

/**
 * Waits `ms` between rounds.
 * @throws A2AClientError — {@link stopped} when the caller aborts or the deadline passes meanwhile.
 */
export async function pause(ms: number, scope: CallScope, last: A2AClientError, o: StreamCall): Promise<void> {
  try {
    await scope.sleep(ms);
  } catch {
    throw stopped(scope, last, o);
  }
}

/** The error when polling brought no news of the task for `maxIdleMs` (cause: the drop that led to polling). */
export function pollIdleError(maxIdleMs: number, drop: A2AClientError, last: A2AClientError): A2AClientError {
  return new A2AClientError({
    kind: 'idle-timeout',
    message: `No news of the task for ${Math.round(maxIdleMs)} ms while polling getTask (resubscribe is not available)`,
    cause: drop,
    attempts: last === drop ? [drop] : [drop, last],
  });
}
