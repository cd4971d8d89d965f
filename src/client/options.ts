import type { Dispatcher } from 'undici';
import type { EventConverter } from '../convert/converter.js';
import type { ConverterRegistry } from '../convert/registry.js';
import type { CircuitBreakerOptions, RetryOptions } from '../resilience/options.js';
import type { ResilienceEvent } from '../resilience/event-types.js';
import type { SharedState } from '../resilience/shared-state.js';
import type { HeadersOption } from '../protocol/request-headers.js';
import type { CardSignatureOptions } from './card-signature.js';
import type { ProtocolBinding, ProtocolVersion } from '../protocol/model.js';
import type { GrpcOptions } from '../protocol/grpc/grpc-target.js';
import type { Limits, Timeouts } from '../transport/settings.js';
import type { TlsOptions } from '../transport/tls-options.js';

export type { HeadersContext, HeadersOption } from '../protocol/request-headers.js';

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
   * with kind `http` naming the scheme; header values never appear in errors or events. They go only
   * to the origin `connect` was given and to `redirects.trustedOrigins` (card redirects and the
   * card's interface alike): an interface a fetched card names on another origin is called without
   * them, and the function is not called for it (docs/networks.md, "Credentials").
   * @example
   * headers: async ({ challenge }) => ({ authorization: `Bearer ${await tokens.get({ refresh: challenge !== undefined })}` })
   */
  headers?: HeadersOption;
  /** Use this WHATWG fetch (or `'global'` for `globalThis.fetch`, looked up per call) instead of undici. */
  fetch?: typeof globalThis.fetch | 'global';
  /**
   * An undici dispatcher for the default engine. The client does not close it. Cannot be combined
   * with `proxy` or `tls` (kind `unsupported`): configure those on the dispatcher.
   */
  dispatcher?: Dispatcher;
  /**
   * Ask agents for compressed answers: requests carry `Accept-Encoding: gzip, deflate, br` (plus `zstd`
   * where the platform decodes it). Compressed answers are decoded either way (a gateway may compress
   * unasked), incrementally for streams, with `limits` applied to the decoded size. Undici engine only:
   * a `fetch` sends its own `Accept-Encoding` and decodes by itself.
   *
   * Off by default, from `npm run bench:compression` (loopback, prose-like text that gzip shrinks
   * ~3.5×): asking costs the client 1–2 ms of CPU per decoded MB (a 10 MB artifact: ~46 ms instead of
   * ~30) and ~7 µs per streamed event (2,000 events: 22 ms instead of 7), and invites the agent to
   * spend far more compressing (gzip: ~42 ms per MB there), while most A2A answers are small and a
   * coordinator's agents often sit in the same network (on loopback a 10 MB body came no faster
   * compressed). Turn it on for agents across a real network that send large artifacts or long
   * streams: below ~1 Gbit/s the saved bytes outweigh the CPU (10 MB on 100 Mbit/s: ~0.3 s instead of
   * ~0.85 s), and on metered links.
   * @default false
   */
  compression?: boolean;
  /**
   * Reach the agent through an HTTP proxy: card fetches, calls and streams. `'env'` reads
   * `https_proxy` / `HTTPS_PROXY` (https agents), `http_proxy` / `HTTP_PROXY` (http agents, and https
   * ones when no https proxy is set) and `no_proxy` / `NO_PROXY` (hosts reached directly), lower case
   * first; a URL names the proxy (`http://user:pass@proxy:3128`: the credentials go in
   * `Proxy-Authorization` and never appear in errors or events). https agents are reached through a
   * CONNECT tunnel, http ones with absolute-form requests. A proxy that refuses fails with kind
   * `connection`, reason `proxy`, the proxy's `status` (407: its credentials) — not retried, not
   * counted against the agent's breaker. Default engine only: with `fetch` or `dispatcher` it is an
   * `unsupported` error.
   * @example
   * proxy: 'env'
   */
  proxy?: 'env' | string;
  /**
   * TLS for connections to the agent (card fetches and calls; through a proxy tunnel too): a private
   * CA (`ca`), a client certificate for mutual TLS (`cert`, `key`, `passphrase`), the name to check
   * (`servername`). A certificate that does not verify or that the agent refuses fails with kind
   * `connection`, reason `tls`, phase `before-send`, and is never retried. `rejectUnauthorized: false`
   * is for tests only. Default engine only: with `fetch` (the platform does not allow it) or
   * `dispatcher` it is an `unsupported` error.
   * @example
   * tls: { ca: readFileSync('ca.pem'), cert: readFileSync('client.pem'), key: readFileSync('client-key.pem') }
   */
  tls?: TlsOptions;
  /**
   * The gRPC binding's channel: plaintext to a remote host (`insecure`), HTTP/2 keepalive pings. TLS
   * settings come from `tls`. A channel is shared by the clients of one target with the same settings.
   * @example
   * grpc: { keepalive: { timeMs: 60_000, timeoutMs: 10_000 } }
   */
  grpc?: GrpcOptions;
  /** Force a protocol version and/or binding instead of the card's preference (`binding: 'GRPC'` insists on gRPC). */
  protocol?: {
    /** Speak this version, when the card offers it. */
    version?: ProtocolVersion;
    /** Use this binding, when the card offers it. */
    binding?: ProtocolBinding;
  };
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
  /**
   * How agent-card fetches (`connect`, `refreshCard`) follow redirects. They follow up to 5 (301, 302,
   * 303, 307, 308, always as GET); the caller's headers (from `headers`, static or function, and the
   * call's: `authorization`, cookies, API keys, …) go only to the requested origin and the origins
   * trusted here — once a hop leaves them they are dropped for the rest of the chain. A redirect from
   * https to http, to another scheme, without a valid `Location`, in a loop or past the 5th fails
   * with kind `card` naming the chain (`redirects`). RPC calls never follow a redirect: a 3xx there is
   * kind `http` with `location`. RPC calls send the caller's headers to the interface only when it is
   * on the requested origin or one trusted here (or the card was verified with `cardSignature`, or
   * handed to `new A2AClient(card)`). Known limit: the fetch engine asks for `redirect: 'manual'`, which in a
   * browser yields an opaque response without status or `Location`: there a card redirect cannot be followed.
   * @example
   * redirects: { trustedOrigins: ['https://cards.example.com'] }
   */
  redirects?: RedirectOptions;
  /**
   * Cancel at the agent what the caller abandons: when the caller's signal aborts, the deadline ends
   * the call, or a `for await` over a stream (`sendStreamingMessage`, `stream`, `subscribeToTask`) is
   * left early (`break`, `return`, a throw) after the task's id is known and before the task
   * reached a terminal or interrupted state, the client sends `cancelTask` for it: once, best effort,
   * in the background with its own deadline of 2 s (not the caller's, not under its signal). The
   * caller is never kept waiting; the outcome is an `onEvent` event `{ type: 'cancel', taskId,
   * outcome }` (and a span event when tracing is on). `close()` waits for cancels still in flight.
   *
   * A blocking `sendMessage` (and `invoke`) cannot be cancelled: the task's id arrives with the
   * answer, when there is nothing left to cancel. Stream instead, or send with
   * `configuration: { blocking: false }`. With this option on, `stream` and `sendStreamingMessage`
   * on an agent whose card says it does not stream send non-blocking and poll `getTask`, so the id
   * is known at once.
   * @default false
   */
  cancelOnAbort?: boolean;
}

/** How card fetches treat redirects; see {@link ClientOptions.redirects}. */
export interface RedirectOptions {
  /**
   * Origins (`https://host[:port]`; a path is ignored) trusted with the caller's headers as the
   * requested origin is: a card fetch redirected to them sends them, and so does every RPC call when
   * the card's interface is on one of them (a gRPC interface `grpcs://host:port` compares as
   * `https://host:port`). An interface on any other origin gets none of the caller's headers (see
   * docs/networks.md, "Credentials"). An https→http redirect is refused whatever is trusted.
   * @default []
   */
  trustedOrigins?: readonly string[];
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
   * Cancel this call's task at the agent when the call is abandoned (aborted, deadline, a stream
   * left early); overrides the client's `cancelOnAbort`. See {@link ClientOptions.cancelOnAbort}.
   */
  cancelOnAbort?: boolean;
  /**
   * Event-API streams (`stream`, `resume`): how much of the answer the client keeps for the final
   * event, in characters of text. The final event carries the whole answer when it is at most this
   * long; a longer answer is let go as it passes the limit (the chunks carried all of it), so it costs
   * memory for the current chunk only, and the final event then carries only its own status
   * message's text (if any), with `answerOmitted: true`. `true`: no limit; `false`: keep none. Ignored
   * by `invoke` (its events are all kept anyway) and by the protocol-level methods.
   * @default 1_048_576 (1 MiB of text)
   */
  accumulate?: boolean | number;
}
