import type { AttemptContext, Binding, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from '../protocol/binding.js';
import { DEADLINE_HEADER, deadlineHeaderValue } from '../protocol/deadline-header.js';
import { deferredIterable } from '../protocol/deferred-iterable.js';
import type { StreamEvent } from '../protocol/model.js';
import type { Resilience } from '../resilience/pipeline.js';
import { resumableStream } from '../resilience/stream-resume.js';
import type { CallScope } from '../transport/call-scope.js';
import { withSettings, type HttpEngine, type Limits, type Timeouts } from '../transport/engine.js';
import { mergeHeaders, resolveHeaders } from './headers.js';
import type { CallOptions, ClientOptions } from './options.js';

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
 * How one call of a client runs, top to bottom: its timeouts and deadline, the agent's pipeline, and
 * per attempt the context the binding sends with (headers, the call's scope, limits). Streams go
 * through {@link resumableStream}, which resubscribes or polls under the same pipeline and deadline.
 */
export class AgentCalls {
  readonly #init: AgentCallsInit;
  /** `options.headers` lower-cased once, when they are a record (a function is called per attempt). */
  readonly #staticHeaders: Record<string, string>;

  constructor(init: AgentCallsInit) {
    this.#init = init;
    const headers = init.options.headers;
    this.#staticHeaders = typeof headers === 'function' ? {} : mergeHeaders(headers);
  }

  /**
   * One unary call through the pipeline.
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
    // The request's scope opens inside the call's: one deadline and one listener on the caller's signal.
    return this.#init.resilience.execute({ method, idempotent: IDEMPOTENT.has(method), deadline, signal: call.signal, retry: call.retry }, (attempt) => {
      const ctx = this.#attemptContext(call, attempt.scope, timeouts);
      return ctx instanceof Promise ? ctx.then((c) => binding.unary(method, params, c)) : binding.unary(method, params, ctx);
    });
  }

  /** One stream, resumed after drops, in batches (one per network read). */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], call: CallOptions): AsyncIterable<StreamEvent[]> {
    let settings: { timeouts: Readonly<Timeouts>; deadline: number };
    try {
      settings = this.#callTimeouts(call);
    } catch (error) {
      // Invalid per-call settings fail the first read, as any failure of a stream does.
      return deferredIterable(() => Promise.reject(error));
    }
    const { timeouts, deadline } = settings;
    const context = async (scope: CallScope): Promise<AttemptContext> => this.#attemptContext(call, scope, timeouts);
    const binding = this.#init.binding;
    const open =
      <N extends StreamMethod>(name: N, p: StreamMethods[N]) =>
      (scope: CallScope): AsyncIterable<StreamEvent[]> =>
        deferredIterable(async () => binding.stream(name, p, await context(scope)));
    return resumableStream({
      agent: this.#init.name,
      method,
      idempotent: IDEMPOTENT.has(method),
      deadline,
      signal: call.signal,
      open: open(method, params),
      resubscribe: (taskId, scope) => open('subscribeToTask', { id: taskId })(scope),
      getTask: async (taskId, scope) => binding.unary('getTask', { id: taskId }, await context(scope)),
      resilience: this.#init.resilience,
      retry: call.retry,
      onEvent: this.#init.options.onEvent,
      maxIdleMs: timeouts.streamIdleMs,
    });
  }

  /** @throws A2AClientError kind `unsupported` for a per-call timeout that is not a number ≥ 0. */
  #callTimeouts(call: CallOptions): { timeouts: Readonly<Timeouts>; deadline: number } {
    const timeouts = call.timeouts === undefined ? this.#init.timeouts : withSettings('timeouts', this.#init.timeouts, call.timeouts);
    return { timeouts, deadline: performance.now() + timeouts.totalMs };
  }

  /** One attempt's context, under the call's `scope`; synchronous unless `options.headers` is a function (called per attempt). */
  #attemptContext(call: CallOptions, scope: CallScope, timeouts: Readonly<Timeouts>): AttemptContext | Promise<AttemptContext> {
    const headers = this.#init.options.headers;
    if (typeof headers === 'function') {
      return resolveHeaders(headers, call.headers).then((resolved) => this.#context(resolved, scope, timeouts));
    }
    const merged = call.headers === undefined ? this.#staticHeaders : mergeHeaders(this.#staticHeaders, call.headers);
    return this.#context(merged, scope, timeouts);
  }

  #context(headers: Record<string, string>, scope: CallScope, timeouts: Readonly<Timeouts>): AttemptContext {
    const { engine, url, limits, options } = this.#init;
    const ctx: AttemptContext = { engine, url, headers, timeouts, scope, limits };
    if (options.propagateDeadline) ctx.headers = { ...headers, [DEADLINE_HEADER]: deadlineHeaderValue(scope.timeLeft()) };
    if (options.extensions) ctx.extensions = options.extensions;
    return ctx;
  }
}
