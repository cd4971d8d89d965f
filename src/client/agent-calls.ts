import type { AttemptContext, Binding, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from '../protocol/binding.js';
import { DEADLINE_HEADER, deadlineHeaderValue } from '../protocol/deadline-header.js';
import { deferredIterable } from '../protocol/deferred-iterable.js';
import type { AgentCard, StreamEvent } from '../protocol/model.js';
import { opt } from '../protocol/opt.js';
import type { Resilience } from '../resilience/pipeline.js';
import { resumableStream } from '../resilience/stream-resume.js';
import type { CallScope } from '../transport/call-scope.js';
import { withSettings, type HttpEngine, type Limits, type Timeouts } from '../transport/engine.js';
import { challengedStream, withChallengeRepeat } from './auth-challenge.js';
import { mergeHeaders, resolveHeaders } from './headers.js';
import type { CallOptions, ClientOptions, HeadersContext } from './options.js';
import type { CallTrace } from '../resilience/call-trace.js';
import { startCallTrace, traceTarget, tracingOn, type TraceTarget } from '../tracing/start-call-trace.js';
import { tracedStream } from '../tracing/traced-stream.js';

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
  engine: HttpEngine;
  binding: Binding;
  resilience: Resilience;
  options: ClientOptions;
  /** The client's timeouts with the defaults filled in. */
  timeouts: Readonly<Timeouts>;
  limits: Limits;
}

/**
 * How one call of a client runs, top to bottom: its span (when tracing is on), its timeouts and
 * deadline, the agent's pipeline, and per attempt the context the binding sends with (headers, trace
 * context, the call's scope, limits). Streams go through {@link resumableStream}, which resubscribes
 * or polls under the same pipeline, deadline and span.
 */
export class AgentCalls {
  readonly #init: AgentCallsInit;
  /** `options.headers` lower-cased once, when they are a record (a function is called per attempt). */
  readonly #staticHeaders: Record<string, string>;
  /** Who the calls' spans say they go to. */
  readonly #target: TraceTarget;

  constructor(init: AgentCallsInit) {
    this.#init = init;
    const headers = init.options.headers;
    this.#staticHeaders = typeof headers === 'function' ? {} : mergeHeaders(headers);
    this.#target = traceTarget(init.name, init.url);
  }

  /**
   * One unary call through the pipeline, under one span when tracing is on.
   * @throws A2AClientError once resilience gives up.
   */
  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], call: CallOptions): Promise<UnaryMethods[M]['result']> {
    let settings: { timeouts: Readonly<Timeouts>; deadline: number };
    try {
      settings = this.#callTimeouts(call);
    } catch (error) {
      return Promise.reject(error);
    }
    const { timeouts, deadline } = settings;
    const binding = this.#init.binding;
    const trace = startCallTrace(this.#target, method, params);
    // The request's scope opens inside the call's: one deadline and one listener on the caller's signal.
    const result = this.#init.resilience.execute({ method, idempotent: IDEMPOTENT.has(method), deadline, signal: call.signal, retry: call.retry, trace }, (attempt) =>
      typeof this.#init.options.headers !== 'function'
        ? binding.unary(method, params, this.#staticContext(call, attempt.scope, timeouts, trace))
        : this.#withHeaders(call, attempt.scope, timeouts, attempt.attempt, method, trace, (ctx) => binding.unary(method, params, ctx)),
    );
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
   * when tracing is on. With `pollTaskId` the existing task is followed by polling `getTask` from the
   * start (an agent that does not stream) and `method` / `params` only name the call.
   */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], call: CallOptions, pollTaskId?: string): AsyncIterable<StreamEvent[]> {
    const make = (trace: CallTrace | undefined): AsyncIterable<StreamEvent[]> => this.#resumable(method, params, call, trace, pollTaskId);
    return tracingOn() ? tracedStream(() => startCallTrace(this.#target, method, params), make) : make(undefined);
  }

  #resumable<M extends StreamMethod>(method: M, params: StreamMethods[M], call: CallOptions, trace: CallTrace | undefined, pollTaskId: string | undefined): AsyncIterable<StreamEvent[]> {
    let settings: { timeouts: Readonly<Timeouts>; deadline: number };
    try {
      settings = this.#callTimeouts(call);
    } catch (error) {
      // Invalid per-call settings fail the first read, as any failure of a stream does.
      return deferredIterable(() => Promise.reject(error));
    }
    const { timeouts, deadline } = settings;
    const binding = this.#init.binding;
    const open =
      <N extends StreamMethod>(name: N, p: StreamMethods[N]) =>
      (scope: CallScope, attempt: number): AsyncIterable<StreamEvent[]> => {
        if (typeof this.#init.options.headers !== 'function') return binding.stream(name, p, this.#staticContext(call, scope, timeouts, trace));
        return challengedStream(
          (challenge) => this.#dynamicContext(call, scope, timeouts, { card: this.#init.card, attempt, method: name, ...opt('challenge', challenge) }, trace),
          (ctx) => binding.stream(name, p, ctx),
          trace && ((c) => trace.challenge(c.status, c.challenges[0]?.scheme)),
        );
      };
    return resumableStream({
      agent: this.#init.name,
      method,
      idempotent: IDEMPOTENT.has(method),
      deadline,
      signal: call.signal,
      open: open(method, params),
      resubscribe: (taskId, scope, attempt) => open('subscribeToTask', { id: taskId })(scope, attempt),
      getTask: (taskId, scope, attempt) => this.#withHeaders(call, scope, timeouts, attempt, 'getTask', trace, (ctx) => binding.unary('getTask', { id: taskId }, ctx)),
      resilience: this.#init.resilience,
      retry: call.retry,
      onEvent: this.#init.options.onEvent,
      maxIdleMs: timeouts.streamIdleMs,
      trace,
      pollTaskId,
    });
  }

  /** @throws A2AClientError kind `unsupported` for a per-call timeout that is not a number ≥ 0. */
  #callTimeouts(call: CallOptions): { timeouts: Readonly<Timeouts>; deadline: number } {
    const timeouts = call.timeouts === undefined ? this.#init.timeouts : withSettings('timeouts', this.#init.timeouts, call.timeouts);
    return { timeouts, deadline: performance.now() + timeouts.totalMs };
  }

  /**
   * Runs one attempt's request with its context: synchronously built from static headers, or — when
   * `options.headers` is a function — with the function called for this attempt, and called again
   * to answer an authentication challenge (one repeat, see {@link withChallengeRepeat}).
   */
  #withHeaders<T>(
    call: CallOptions,
    scope: CallScope,
    timeouts: Readonly<Timeouts>,
    attempt: number,
    method: string,
    trace: CallTrace | undefined,
    run: (ctx: AttemptContext) => Promise<T>,
  ): Promise<T> {
    if (typeof this.#init.options.headers !== 'function') return run(this.#staticContext(call, scope, timeouts, trace));
    const card = this.#init.card;
    return withChallengeRepeat(
      (challenge) => this.#dynamicContext(call, scope, timeouts, { card, attempt, method, ...opt('challenge', challenge) }, trace),
      run,
      trace && ((c) => trace.challenge(c.status, c.challenges[0]?.scheme)),
    );
  }

  /** An attempt's context from the static headers (a record), merged with the call's. */
  #staticContext(call: CallOptions, scope: CallScope, timeouts: Readonly<Timeouts>, trace: CallTrace | undefined): AttemptContext {
    const merged = call.headers === undefined ? this.#staticHeaders : mergeHeaders(this.#staticHeaders, call.headers);
    return this.#context(merged, scope, timeouts, trace);
  }

  /** An attempt's context with the headers function called for it. */
  async #dynamicContext(call: CallOptions, scope: CallScope, timeouts: Readonly<Timeouts>, ctx: HeadersContext, trace: CallTrace | undefined): Promise<AttemptContext> {
    return this.#context(await resolveHeaders(this.#init.options.headers, call.headers, ctx), scope, timeouts, trace);
  }

  /** The context one request is sent with: the headers plus the deadline and trace context, when on. */
  #context(headers: Record<string, string>, scope: CallScope, timeouts: Readonly<Timeouts>, trace: CallTrace | undefined): AttemptContext {
    const { engine, url, limits, options } = this.#init;
    const ctx: AttemptContext = { engine, url, headers, timeouts, scope, limits };
    if (options.propagateDeadline) ctx.headers = { ...headers, [DEADLINE_HEADER]: deadlineHeaderValue(scope.timeLeft()) };
    if (trace !== undefined) ctx.headers = trace.inject(ctx.headers);
    if (options.extensions) ctx.extensions = options.extensions;
    return ctx;
  }
}
