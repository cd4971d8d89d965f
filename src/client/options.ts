import type { Dispatcher } from 'undici';
import type { EventConverter } from '../convert/converter.js';
import type { ConverterRegistry } from '../convert/registry.js';
import type { CircuitBreakerOptions, ResilienceEvent, RetryOptions } from '../resilience/options.js';
import type { SharedState } from '../resilience/shared-state.js';
import type { AuthChallenge } from '../errors/auth-refusal.js';
import type { CardSignatureOptions } from './card-signature.js';
import type { AgentCard, ProtocolBinding, ProtocolVersion } from '../protocol/model.js';
import type { Limits, Timeouts } from '../transport/engine.js';

/** What a headers function is told about the request it supplies headers for. */
export interface HeadersContext {
  /** The agent's card; `undefined` while it is being discovered (the first card fetch of `connect`). */
  card: AgentCard | undefined;
  /** 1-based attempt number within the call; the repeat after a challenge keeps its attempt's number. */
  attempt: number;
  /** The method, e.g. `sendMessage`, `getExtendedAgentCard`, or `getAgentCard` for a card fetch. */
  method: string;
  /**
   * Set when the agent refused the previous try of this attempt with 401 (or 403 `insufficient_scope`)
   * and a `WWW-Authenticate` challenge: answer it (a fresh token, more scope) and the request is
   * repeated once.
   */
  challenge?: AuthChallenge;
}

/**
 * Headers as a record, or a function (e.g. returning a fresh token) called before every attempt
 * with a {@link HeadersContext}. A function that takes no argument works too.
 */
export type HeadersOption =
  | Record<string, string>
  | ((ctx: HeadersContext) => Record<string, string> | Promise<Record<string, string>>);

/** @deprecated Use {@link HeadersOption}: this name shadows the DOM's `HeadersInit`. */
export type HeadersInit = HeadersOption;

/** Options of an {@link A2AClient}. All optional. */
export interface ClientOptions {
  /** Timeout layers; see {@link Timeouts} for defaults. */
  timeouts?: Partial<Timeouts>;
  /** Size caps on what the agent can make the client buffer. */
  limits?: Partial<Limits>;
  /** Retries; `false` for one attempt only (a per-call `retry` object still applies). */
  retry?: false | Partial<RetryOptions>;
  /**
   * Per-agent circuit breaker, shared by every client of the same origin; `false` to turn off. Idle
   * per-origin state (a closed breaker, the retry budget) is dropped once the process knows many
   * origins; an open or half-open breaker never is.
   */
  circuitBreaker?: false | Partial<CircuitBreakerOptions>;
  /** Most calls in flight to this agent at once (bulkhead); beyond it calls queue (`maxQueued`). */
  maxConcurrent?: number;
  /**
   * Calls that may wait for a free slot when `maxConcurrent` is reached; more are rejected with
   * `bulkhead-rejected`.
   * @default 0
   */
  maxQueued?: number;
  /** The converter for `invoke` / `stream`, by registered name or as an instance. */
  converter?: string | EventConverter;
  /** Where converters are looked up and matched against the card. */
  converters?: ConverterRegistry;
  /**
   * Headers sent on every request (card fetches included): a record, or a function called before
   * every attempt. When the agent answers 401 (or 403 with `insufficient_scope`) with a
   * `WWW-Authenticate` challenge, the function is called again with `challenge` set and the request
   * repeated once — not counted as a retry, not seen by the circuit breaker. A second refusal fails
   * with kind `http` naming the scheme; header values never appear in errors or events.
   * @example
   * headers: async ({ challenge }) => ({ authorization: `Bearer ${await tokens.get({ refresh: challenge !== undefined })}` })
   */
  headers?: HeadersOption;
  /** Use this WHATWG fetch (or `'global'` for `globalThis.fetch`, looked up per call) instead of undici. */
  fetch?: typeof globalThis.fetch | 'global';
  /** An undici dispatcher for the default engine. The client does not close it. */
  dispatcher?: Dispatcher;
  /** Force a protocol version and/or binding instead of the card's preference. */
  protocol?: { version?: ProtocolVersion; binding?: ProtocolBinding };
  /** A2A extensions to announce on every request. */
  extensions?: string[];
  /**
   * Send the time left of each call's deadline to the agent in the `a2a-deadline-ms` header, so a
   * chain of agents shares one deadline (read it with `readDeadline`).
   * @default false
   */
  propagateDeadline?: boolean;
  /** Receives retries, give-ups, breaker transitions, budget exhaustion, resubscribes and `shared-state` changes. */
  onEvent?: (event: ResilienceEvent) => void;
  /**
   * Share this agent's circuit breaker and retry budget with every process using the same store
   * (coordinator replicas): a breaker that opens anywhere opens everywhere within a second and
   * half-opens with one probe for the whole fleet; retries stay within one budget for the fleet.
   * Calls never wait for the store: it syncs in the background, and while it is unreachable each
   * process goes on with its own state (a `shared-state` event says so). Make one with
   * `redisStateStore` from `a2a-resilient/redis`. Without it, state is shared within the process only.
   * @example
   * const shared = redisStateStore({ url: 'redis://127.0.0.1:6379', prefix: 'a2a:' });
   * const client = await A2AClient.connect(agentUrl, { sharedState: shared });
   */
  sharedState?: SharedState;
  /**
   * Verify the agent card's JWS signatures (A2A spec 8.4) on `connect()` and `refreshCard()` with these
   * trusted keys (JWKs by `kid`, or a resolver `(kid, jku?) => key`). A card without a signature
   * (unless `required: false`), with an unknown key or an invalid signature fails with kind `card`.
   * A card given to `new A2AClient(card)` is not verified: call `verifyAgentCard` first.
   */
  cardSignature?: CardSignatureOptions;
}

/** Per-call options, also the third argument of `A2AClient.connect` (they bound discovery). All optional. */
export interface CallOptions {
  /** Ends the call at once with kind `aborted`. */
  signal?: AbortSignal;
  /** Override the client's timeouts for this call. */
  timeouts?: Partial<Timeouts>;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * Override retry settings for this call, merged over the client's (over the defaults when the
   * client has `retry: false`); `false` for one attempt.
   */
  retry?: false | Partial<RetryOptions>;
  /**
   * Event-API streams (`stream`, `resume`): `false` keeps no text of the answer beyond the chunk being
   * converted, so a very long answer costs memory for the current chunk, not for everything so far;
   * the final event then carries only its own status message's text (if any), not the whole answer —
   * gather the chunks yourself if you need it. Ignored by `invoke` (its events are all kept anyway)
   * and by the protocol-level methods.
   * @default true
   */
  accumulate?: boolean;
}
