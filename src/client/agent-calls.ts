import { AgentRequests, type CallRequestOptions } from '../protocol/agent-requests.js';
import type { Binding, ResolvedSendParams, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from '../protocol/binding.js';
import { deferredIterable } from '../protocol/deferred-iterable.js';
import type { AgentCard, StreamEvent } from '../protocol/model.js';
import { opt } from '../protocol/opt.js';
import type { Resilience } from '../resilience/pipeline.js';
import type { RetryPolicy } from '../resilience/retry-policy.js';
import { resumableStream, type StreamOpen } from '../resilience/stream-resume.js';
import type { HttpEngine } from '../transport/engine.js';
import { withSettings, type Limits, type Timeouts } from '../transport/settings.js';
import type { CallOptions, ClientOptions } from './options.js';
import type { CallTrace } from '../resilience/call-trace.js';
import { startCallTrace, traceTarget, tracingOn, type TraceTarget } from '../tracing/start-call-trace.js';
import { tracedStream } from '../tracing/traced-stream.js';
import { CANCEL_DEADLINE_MS } from '../resilience/event-types.js';
import { TaskCancels, type SentCancel } from './task-cancels.js';
import { callDeadlineName } from '../transport/deadline-name.js';
import { SendAnswers, type LookupContext } from '../resilience/send-answers.js';
import { afterLostSend } from '../resilience/lost-send.js';
import { CallScope } from '../transport/call-scope.js';
import type { CallRequests } from '../protocol/agent-requests.js';
import type { SendResult } from '../protocol/model.js';
import { waitForTask } from './wait-for-task.js';
import { withinDeadline, type FollowOptions, type TaskCallsPort } from './task-calls.js';

export type { FollowOptions } from './task-calls.js';

/** Methods that can be repeated without changing the outcome: retried after ambiguous failures. */
const IDEMPOTENT: ReadonlySet<UnaryMethod | StreamMethod> = new Set<UnaryMethod | StreamMethod>([
  'getTask',
  'listTasks',
  'cancelTask',
  'getTaskPushNotificationConfig',
  'listTaskPushNotificationConfig',
  'deleteTaskPushNotificationConfig',
  'getExtendedAgentCard',
  'subscribeToTask',
]);

/** What an {@link AgentCalls} runs calls with: the client's parts. */
export interface AgentCallsInit {
  /** The agent's name, on errors and events. */
  name: string;
  /** The agent's card, for the headers function. */
  card: AgentCard;
  /** The negotiated interface URL. */
  url: string;
  /** The interface may get the caller's headers (`client/credential-scope.ts`); false: none are sent. */
  credentials: boolean;
  engine: HttpEngine;
  binding: Binding;
  resilience: Resilience;
  options: ClientOptions;
  /** The client's timeouts with the defaults filled in. */
  timeouts: Readonly<Timeouts>;
  limits: Limits;
}

/** A call's timeouts with its deadline (`performance.now()` ms) and the setting that deadline came from. */
interface CallSettings {
  timeouts: Readonly<Timeouts>;
  deadline: number;
  deadlineName: string;
}

/**
 * How one call of a client runs, top to bottom: its span (when tracing is on), its timeouts and
 * deadline, the agent's pipeline, and per attempt a request of the call's {@link CallRequests}
 * (`protocol/agent-requests.ts`: headers, trace context, the call's scope, limits), handed down.
 * Streams go through {@link resumableStream}, which resubscribes or polls under the same pipeline,
 * deadline and span with the same requests.
 */
export class AgentCalls implements TaskCallsPort {
  readonly #init: AgentCallsInit;
  /** How every request of the client is made. */
  readonly #requests: AgentRequests;
  /** Who the calls' spans say they go to. */
  readonly #target: TraceTarget;
  /** The cancels of abandoned tasks (`cancelOnAbort`) in flight. */
  readonly #cancels: TaskCancels;
  /** How the agent has answered sends: whether a lookup that finds no task proves anything. */
  readonly #answers = new SendAnswers();

  constructor(init: AgentCallsInit) {
    this.#init = init;
    this.#cancels = new TaskCancels(init.name, init.options.onEvent, this.#sendCancel);
    const { card, engine, binding, url, limits, options, credentials } = init;
    this.#requests = new AgentRequests({ card, engine, binding, url, limits, headers: options.headers, credentials, propagateDeadline: options.propagateDeadline === true, extensions: options.extensions });
    this.#target = traceTarget(init.name, init.url);
  }

  /**
   * One unary call through the pipeline, under one span when tracing is on.
   * @throws A2AClientError once resilience gives up.
   */
  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], call: CallOptions): Promise<UnaryMethods[M]['result']> {
    let settings: CallSettings;
    try {
      settings = this.#callTimeouts(call);
    } catch (error) {
      return Promise.reject(error);
    }
    const trace = startCallTrace(this.#target, method, params);
    const result = method === 'sendMessage' ? this.#send(params as ResolvedSendParams, call, settings, trace) : this.#execute(method, params, call, settings, trace);
    if (trace === undefined) return result;
    return result.then(
      (value) => {
        trace.observe(value);
        trace.end();
        return value;
      },
      (error: unknown) => {
        trace.end(error);
        throw error;
      },
    );
  }

  /**
   * One stream, resumed after drops, in batches (one per network read); one span from its first read
   * when tracing is on. With `follow.poll` the existing task `follow.taskId` is followed by polling
   * `getTask` from the start (an agent that does not stream) and `method` / `params` only name the call.
   */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], call: CallOptions, follow: FollowOptions = {}): AsyncIterable<StreamEvent[]> {
    const make = (trace: CallTrace | undefined): AsyncIterable<StreamEvent[]> =>
      this.#resumable({ method, params } as StreamOpen, call, trace, follow);
    return tracingOn() ? tracedStream(() => startCallTrace(this.#target, method, params), make) : make(undefined);
  }

  /**
   * A send to an agent that does not stream, its task followed as a stream would be: sent with
   * `blocking: false` (the task's id comes back at once), then polled with `getTask` until terminal
   * or interrupted, under one deadline — so `cancelOnAbort` has an id to cancel. An agent that
   * ignores `blocking: false` answers with the final result: nothing is polled then.
   */
  polledSend(params: ResolvedSendParams, call: CallOptions, follow: FollowOptions = {}): AsyncIterable<StreamEvent[]> {
    const sent: ResolvedSendParams = { ...params, configuration: { ...params.configuration, blocking: false } };
    const make = (trace: CallTrace | undefined): AsyncIterable<StreamEvent[]> =>
      this.#resumable({ method: 'sendMessage', params: sent }, call, trace, follow);
    return tracingOn() ? tracedStream(() => startCallTrace(this.#target, 'sendMessage', sent), make) : make(undefined);
  }

  /** The retry policy of a call (the client's under the call's `retry` override): loops of the client's own ask it. */
  policy(call: CallOptions): RetryPolicy {
    return this.#init.resilience.policy(call.retry);
  }

  /** Waits for the cancels `cancelOnAbort` sent that are still in flight (each bounded by its own deadline). */
  settleCancels(): Promise<void> {
    return this.#cancels.close();
  }

  /**
   * The request behind a unary call, through the pipeline under the call's deadline and signal; the
   * span is the caller's to end. `again`: a repeat of a send proven absent, with at most this many
   * attempts, charged to the retry budget as a retry.
   */
  #execute<M extends UnaryMethod>(
    method: M,
    params: UnaryMethods[M]['params'],
    call: CallOptions,
    settings: CallSettings,
    trace: CallTrace | undefined,
    again?: number,
  ): Promise<UnaryMethods[M]['result']> {
    const { deadline, deadlineName } = settings;
    const options = requestOptions(call, settings.timeouts, trace);
    const repeat = again === undefined ? undefined : { maxAttempts: again, resumeRound: true };
    // The request's scope opens inside the call's: one deadline and one listener on the caller's signal.
    return this.#init.resilience.execute({ method, idempotent: IDEMPOTENT.has(method), deadline, deadlineName, signal: call.signal, retry: call.retry, trace, ...repeat }, (attempt) =>
      this.#requests.unary(options, method, params, attempt.scope, attempt.attempt),
    );
  }

  /** A unary send; one whose fate is unknown when it fails is looked up ({@link #lostSend}). */
  #send(params: ResolvedSendParams, call: CallOptions, settings: CallSettings, trace: CallTrace | undefined): Promise<SendResult> {
    const sentAt = Date.now();
    return this.#execute('sendMessage', params, call, settings, trace).then(
      (answer) => {
        this.#answers.saw(answer, params.message);
        return answer;
      },
      (error: unknown) => this.#lostSend(params, call, settings, trace, sentAt, error),
    );
  }

  /**
   * A unary send that failed with `error`, looked up when its fate is unknown (`resilience/lost-send.ts`):
   * found, the task it started — waited for under what is left of the deadline when the send was
   * blocking, as the agent's answer would have; absent, the send repeated.
   * @throws A2AClientError — as `afterLostSend`, or as `waitForTask`.
   */
  async #lostSend(params: ResolvedSendParams, call: CallOptions, settings: CallSettings, trace: CallTrace | undefined, sentAt: number, error: unknown): Promise<SendResult> {
    const { deadline, deadlineName } = settings;
    const scope = new CallScope({ deadline, signal: call.signal, deadlineName });
    try {
      const requests = this.#requests.forCall(requestOptions(call, settings.timeouts, trace));
      const outcome = await afterLostSend(
        {
          call: { agent: this.#init.name, method: 'sendMessage', deadline, signal: call.signal, resilience: this.#init.resilience, retry: call.retry, trace },
          onEvent: this.#init.options.onEvent,
          policy: this.policy(call),
          scope,
          message: params.message,
          lookup: this.#lookupContext(requests, sentAt),
          resend: (maxAttempts) => this.#execute('sendMessage', params, call, settings, trace, maxAttempts),
        },
        error,
      );
      if ('sent' in outcome) {
        this.#answers.saw(outcome.sent, params.message);
        return outcome.sent;
      }
      if (params.configuration?.blocking === false) return outcome.found;
      const deps = { name: this.#init.name, card: this.#init.card, calls: this, timeouts: this.#init.timeouts };
      return await waitForTask(deps, outcome.found.id, { ...withinDeadline(call, deadline, deadlineName), cancelOnAbort: false });
    } finally {
      scope.dispose();
    }
  }

  /**
   * How a send of this client is looked up after an ambiguous failure: with the call's `requests`,
   * from `sentAt` (ms since the epoch); `undefined` where the agent cannot be asked (v0.3 has no `ListTasks`).
   */
  #lookupContext(requests: CallRequests, sentAt: number): LookupContext | undefined {
    return this.#init.binding.version === '1.0' ? { requests, sentAt, answers: this.#answers } : undefined;
  }

  /**
   * The cancel of an abandoned task (see {@link TaskCancels}): one attempt, its own deadline (at most
   * {@link CANCEL_DEADLINE_MS}), the abandoned call's headers, no signal; its span a child of the
   * abandoned call's, left open for the outcome to be recorded on it.
   */
  readonly #sendCancel = (taskId: string, headers: Record<string, string> | undefined, parent: CallTrace | undefined): SentCancel => {
    const params = { id: taskId };
    const trace = parent ? parent.run(() => startCallTrace(this.#target, 'cancelTask', params)) : startCallTrace(this.#target, 'cancelTask', params);
    const call: CallOptions = { retry: false, timeouts: { totalMs: Math.min(CANCEL_DEADLINE_MS, this.#init.timeouts.totalMs) }, ...opt('headers', headers) };
    return { result: this.#execute('cancelTask', params, call, this.#callTimeouts(call), trace), trace };
  };

  /**
   * The stream `open` opens, with the call's requests handed down: resumed after drops (resubscribed
   * where the agent streams, else polled), its task cancelled when abandoned and `cancelOnAbort` is on.
   */
  #resumable(open: StreamOpen, call: CallOptions, trace: CallTrace | undefined, follow: FollowOptions): AsyncIterable<StreamEvent[]> {
    const method = open.method;
    let settings: CallSettings;
    try {
      settings = this.#callTimeouts(call);
    } catch (error) {
      // Invalid per-call settings fail the first read, as any failure of a stream does.
      return deferredIterable(() => Promise.reject(error));
    }
    const { timeouts, deadline, deadlineName } = settings;
    const requests = this.#requests.forCall(requestOptions(call, timeouts, trace));
    const sends = open.method !== 'subscribeToTask';
    const cancelOnAbort = call.cancelOnAbort ?? this.#init.options.cancelOnAbort ?? false;
    return resumableStream({
      agent: this.#init.name,
      method,
      idempotent: IDEMPOTENT.has(method),
      deadline,
      deadlineName,
      signal: call.signal,
      requests,
      open,
      resilience: this.#init.resilience,
      retry: call.retry,
      onEvent: this.#init.options.onEvent,
      maxIdleMs: timeouts.streamIdleMs,
      trace,
      taskId: follow.taskId,
      completed: follow.completed,
      onAbandon: cancelOnAbort ? (taskId, reason) => this.#cancels.abandon({ taskId, method, reason, headers: call.headers, parent: trace }) : undefined,
      pollTaskId: follow.poll === true ? follow.taskId : undefined,
      lookup: sends ? this.#lookupContext(requests, Date.now()) : undefined,
    });
  }

  /** @throws A2AClientError kind `unsupported` for a per-call timeout that is not a number ≥ 0. */
  #callTimeouts(call: CallOptions): CallSettings {
    const timeouts = call.timeouts === undefined ? this.#init.timeouts : withSettings('timeouts', this.#init.timeouts, call.timeouts);
    return { timeouts, deadline: performance.now() + timeouts.totalMs, deadlineName: callDeadlineName(this.#init.timeouts, call.timeouts) };
  }
}

/** A call's share of its requests' context: its headers, timeouts, and its span's trace context and challenge record. */
function requestOptions(call: CallOptions, timeouts: Readonly<Timeouts>, trace: CallTrace | undefined): CallRequestOptions {
  if (trace === undefined) return { headers: call.headers, timeouts };
  return { headers: call.headers, timeouts, inject: (headers) => trace.inject(headers), onChallenge: (c) => trace.challenge(c.status, c.challenges[0]?.scheme) };
}
