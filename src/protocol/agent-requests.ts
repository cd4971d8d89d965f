import type { AuthChallenge } from '../errors/auth-refusal.js';
import type { CallScope } from '../transport/call-scope.js';
import type { HttpEngine } from '../transport/engine.js';
import type { Limits, Timeouts } from '../transport/settings.js';
import { challengedStream, withChallengeRepeat } from './auth-challenge.js';
import type { AttemptContext, Binding, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from './binding.js';
import type { AgentCard } from './card-model.js';
import { DEADLINE_HEADER, deadlineHeaderValue } from './deadline-header.js';
import type { StreamEvent } from './model.js';
import { opt } from './opt.js';
import { mergeHeaders, resolveHeaders, type HeadersOption } from './request-headers.js';

/** How a client's requests are sent: what {@link AgentRequests} is built from. */
export interface AgentRequestsInit {
  /** The agent's card, for the headers function. */
  card: AgentCard;
  engine: HttpEngine;
  binding: Binding;
  /** The negotiated interface URL. */
  url: string;
  limits: Limits;
  /** The client's headers: a record, or a function called per attempt (and again to answer a challenge). */
  headers: HeadersOption | undefined;
  /**
   * False when the interface is on an origin the caller did not name or trust: then neither
   * `headers` (the function is not called) nor a call's headers are sent, only the SDK's own.
   * @default true
   */
  credentials?: boolean;
  /** Send the time left as `a2a-deadline-ms` on every request. */
  propagateDeadline: boolean;
  /** A2A extensions to announce. */
  extensions: string[] | undefined;
}

/** One call's share of its requests' context. */
export interface CallRequestOptions {
  /** The call's own headers, merged over the client's. */
  headers: Record<string, string> | undefined;
  /** The call's timeouts. */
  timeouts: Readonly<Timeouts>;
  /** Adds the trace context to a request's headers (the call's span), when traced. */
  inject?: ((headers: Record<string, string>) => Record<string, string>) | undefined;
  /** Told when the agent challenged a request (the call's span records it). */
  onChallenge?: ((challenge: AuthChallenge) => void) | undefined;
}

/**
 * The requests of one call, one per attempt: what the resilience layer runs (the pipeline's attempts,
 * a stream's send, resubscribes and polls) without reaching back into the client. Each builds its
 * attempt's context — headers, deadline header, trace context, scope — and hands it to the binding.
 */
export interface CallRequests {
  /**
   * One unary request.
   * @throws A2AClientError — the binding's kinds; `unsupported` for a header HTTP cannot carry; after a
   * second authentication refusal kind `http` naming the scheme; whatever the headers function throws.
   */
  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], scope: CallScope, attempt: number): Promise<UnaryMethods[M]['result']>;
  /** One stream request; its first read fails as {@link unary} would. */
  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], scope: CallScope, attempt: number): AsyncIterable<StreamEvent[]>;
}

/**
 * How every request of one client is made, below the resilience layer: the binding, the engine and
 * the interface URL, with headers static (checked and lower-cased once) or from the headers function
 * (called per attempt, and again to answer an authentication challenge: one repeat inside the attempt,
 * see `withChallengeRepeat`).
 */
export class AgentRequests {
  readonly #init: AgentRequestsInit;
  /** `init.headers` lower-cased once, when they are a record. */
  readonly #staticHeaders: Record<string, string>;
  readonly #dynamic: boolean;
  /** The caller's headers (the client's and each call's) may be sent. */
  readonly #credentials: boolean;

  constructor(init: AgentRequestsInit) {
    this.#init = init;
    this.#credentials = init.credentials !== false;
    this.#dynamic = this.#credentials && typeof init.headers === 'function';
    this.#staticHeaders = typeof init.headers === 'function' || !this.#credentials ? {} : mergeHeaders(init.headers);
  }

  /** The requests of one call. */
  forCall(call: CallRequestOptions): CallRequests {
    return new BoundRequests(this, call);
  }

  /** One unary request of `call`. */
  unary<M extends UnaryMethod>(call: CallRequestOptions, method: M, params: UnaryMethods[M]['params'], scope: CallScope, attempt: number): Promise<UnaryMethods[M]['result']> {
    const binding = this.#init.binding;
    if (!this.#dynamic) {
      try {
        return binding.unary(method, params, this.#staticContext(call, scope));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return withChallengeRepeat((challenge) => this.#dynamicContext(call, scope, attempt, method, challenge), (ctx) => binding.unary(method, params, ctx), call.onChallenge);
  }

  /** One stream request of `call`. */
  stream<M extends StreamMethod>(call: CallRequestOptions, method: M, params: StreamMethods[M], scope: CallScope, attempt: number): AsyncIterable<StreamEvent[]> {
    const binding = this.#init.binding;
    if (!this.#dynamic) return binding.stream(method, params, this.#staticContext(call, scope));
    return challengedStream((challenge) => this.#dynamicContext(call, scope, attempt, method, challenge), (ctx) => binding.stream(method, params, ctx), call.onChallenge);
  }

  /** An attempt's context from the static headers, merged with the call's. */
  #staticContext(call: CallRequestOptions, scope: CallScope): AttemptContext {
    const merged = call.headers === undefined || !this.#credentials ? this.#staticHeaders : mergeHeaders(this.#staticHeaders, call.headers);
    return this.#context(merged, call, scope);
  }

  /** An attempt's context with the headers function called for it (with the challenge to answer, on the repeat). */
  async #dynamicContext(call: CallRequestOptions, scope: CallScope, attempt: number, method: string, challenge: AuthChallenge | undefined): Promise<AttemptContext> {
    const headers = await resolveHeaders(this.#init.headers, call.headers, { card: this.#init.card, attempt, method, ...opt('challenge', challenge) });
    return this.#context(headers, call, scope);
  }

  /** The context one request is sent with: the headers plus the deadline and trace context, when on. */
  #context(headers: Record<string, string>, call: CallRequestOptions, scope: CallScope): AttemptContext {
    const { engine, url, limits, propagateDeadline, extensions } = this.#init;
    const ctx: AttemptContext = { engine, url, headers, timeouts: call.timeouts, scope, limits };
    if (propagateDeadline) ctx.headers = { ...headers, [DEADLINE_HEADER]: deadlineHeaderValue(scope.timeLeft()) };
    if (call.inject !== undefined) ctx.headers = call.inject(ctx.headers);
    if (extensions) ctx.extensions = extensions;
    return ctx;
  }
}

/** {@link CallRequests} of one call: the client's {@link AgentRequests} with the call's options. */
class BoundRequests implements CallRequests {
  readonly #requests: AgentRequests;
  readonly #call: CallRequestOptions;

  constructor(requests: AgentRequests, call: CallRequestOptions) {
    this.#requests = requests;
    this.#call = call;
  }

  unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], scope: CallScope, attempt: number): Promise<UnaryMethods[M]['result']> {
    return this.#requests.unary(this.#call, method, params, scope, attempt);
  }

  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], scope: CallScope, attempt: number): AsyncIterable<StreamEvent[]> {
    return this.#requests.stream(this.#call, method, params, scope, attempt);
  }
}
