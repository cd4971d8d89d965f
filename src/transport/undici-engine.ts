import type { Agent, Dispatcher } from 'undici';
import type { EngineRequest, EngineResponse, HttpEngine } from './engine.js';
import { ConnectTracker } from './connect-tracker.js';
import { createProxyDispatcher, type ProxyOption } from './proxy-dispatcher.js';
import { redactSecrets } from '../errors/redact.js';
import { proxySecrets } from './proxy-secrets.js';
import { proxyName } from './proxy-refusal.js';
import type { TlsOptions } from './tls-options.js';
import { UndiciExchange } from './undici-exchange.js';
import { ACCEPT_ENCODING } from './content-decoding.js';
import { undiciCore } from './undici-lib.js';

/** Far beyond any timer of ours: undici's own coarse timers must never be the ones that fire. */
const UNDICI_CONNECT_TIMEOUT_MS = 10 * 60_000;

/**
 * The pool the undici engine owns when no dispatcher is supplied. No cap on connections per origin (undici's
 * default): an open SSE stream holds its HTTP/1.1 connection for its whole life, so a cap would make the
 * stream after it wait for one to end — and fail with `connect-timeout` while it waits. Bound concurrency
 * per agent with `maxConcurrent` (the bulkhead) instead, which says so with `bulkhead-rejected`.
 */
export const DEFAULT_AGENT_OPTIONS: Readonly<Agent.Options> = Object.freeze({
  pipelining: 1,
  keepAliveTimeout: 4_000,
  headersTimeout: 0,
  bodyTimeout: 0,
  connect: { timeout: UNDICI_CONNECT_TIMEOUT_MS },
});

/** Parsed request targets kept per engine (a client talks to few URLs); the cache is reset when it grows past this. */
const MAX_CACHED_TARGETS = 256;

/**
 * The default engine: undici's `dispatch` over a keep-alive pool it owns (or a caller's dispatcher,
 * never closed here), with our own dispatch handler ({@link UndiciExchange}) instead of
 * `undici.request`: no body stream, no abort signal handed to undici, no per-call URL parsing.
 * Connect, read, idle and deadline timers are our own (precise to a few ms); undici's are off.
 * Compressed answers (gzip, deflate, br, zstd where the platform has it) are decoded as they are
 * read, with or without `compression`, which only decides whether requests ask for them.
 */
export class UndiciEngine implements HttpEngine {
  readonly name = 'undici';
  readonly #owned: Agent | undefined;
  readonly #ownedProxy: Dispatcher | undefined;
  readonly #tracker: ConnectTracker | undefined;
  readonly #proxyTracker: ConnectTracker | undefined;
  readonly #dispatcher: Dispatcher;
  /** The forward proxy's name, for its 407 (see {@link UndiciExchange}). */
  readonly #proxy: string | undefined;
  readonly #secrets: readonly string[];
  readonly #targets = new Map<string, { origin: string; path: string }>();
  readonly #compression: boolean;

  /**
   * `dispatcher`: a caller-supplied undici dispatcher; without it the engine creates its own pool,
   * through `proxy` when set, with `tls` for connections to agents (the caller's dispatcher takes
   * neither: `createEngine` refuses the combination). `compression`: send `Accept-Encoding` with
   * every coding the platform decodes, unless the request names its own.
   * @throws A2AClientError kind `unsupported` (field `proxy`) for a proxy URL that is not http(s).
   */
  constructor(
    options: { dispatcher?: Dispatcher | undefined; proxy?: ProxyOption | undefined; tls?: TlsOptions | undefined; compression?: boolean | undefined } = {},
  ) {
    this.#compression = options.compression === true;
    this.#tracker = options.dispatcher === undefined ? new ConnectTracker(UNDICI_CONNECT_TIMEOUT_MS, options.tls) : undefined;
    this.#secrets = proxySecrets(options.proxy);
    if (this.#tracker !== undefined && options.proxy !== undefined) {
      this.#proxyTracker = new ConnectTracker(UNDICI_CONNECT_TIMEOUT_MS);
      this.#ownedProxy = createProxyDispatcher(options.proxy, DEFAULT_AGENT_OPTIONS, this.#tracker, this.#proxyTracker, options.tls, UNDICI_CONNECT_TIMEOUT_MS);
      this.#proxy = forwardProxy(options.proxy);
    } else if (this.#tracker !== undefined) {
      this.#owned = new (undiciCore().Agent)({ ...DEFAULT_AGENT_OPTIONS, connect: this.#tracker.connect });
    }
    const base = options.dispatcher ?? this.#owned ?? this.#ownedProxy;
    if (base === undefined) throw new TypeError('unreachable: no dispatcher');
    this.#dispatcher = base;
  }

  /** The pool this engine owns (for stats in tests and diagnostics); `undefined` with a caller's dispatcher or a proxy. */
  get agent(): Agent | undefined {
    return this.#owned;
  }

  /**
   * Sends the request; resolves when response headers arrive. With a caller-supplied dispatcher a
   * request abandoned while connecting stays queued in that dispatcher until its own connect timeout.
   * @throws A2AClientError `connect-timeout`, `read-timeout`, `deadline-exceeded`, `aborted`, `connection`.
   */
  send(req: EngineRequest): Promise<EngineResponse> {
    const started = performance.now();
    const exchange = new UndiciExchange(req, () => this.#tracker?.abandon(req.url, started), this.#proxy);
    if (exchange.failedEarly) return exchange.response;
    try {
      const { origin, path } = this.#target(req.url);
      const headers = this.#compression && req.headers['accept-encoding'] === undefined ? { ...req.headers, 'accept-encoding': ACCEPT_ENCODING } : req.headers;
      // `maxRedirections: 0` (read by undici's redirect interceptor, as undici's own fetch sets it): a
      // caller's dispatcher composed with `interceptors.redirect` must not follow redirects for us.
      const options: Dispatcher.DispatchOptions & { maxRedirections: number } = {
        origin,
        path,
        method: req.method,
        headers,
        body: req.body ?? null,
        headersTimeout: 0,
        bodyTimeout: 0,
        maxRedirections: 0,
      };
      this.#dispatcher.dispatch(options, exchange);
    } catch (error) {
      exchange.fail(error);
    }
    // Proxy credentials are in no error undici or we build; this keeps them out of one a proxy echoes.
    if (this.#secrets.length === 0) return exchange.response;
    return exchange.response.catch((error: unknown) => Promise.reject(redactSecrets(error, this.#secrets)));
  }

  /** Closes the pool this engine owns; a caller-supplied dispatcher is left open. */
  async close(): Promise<void> {
    this.#tracker?.abandonAll();
    this.#proxyTracker?.abandonAll();
    await (this.#owned ?? this.#ownedProxy)?.close();
  }

  #target(url: string): { origin: string; path: string } {
    let target = this.#targets.get(url);
    if (target === undefined) {
      const u = new URL(url);
      target = { origin: u.origin, path: `${u.pathname}${u.search}` };
      if (this.#targets.size >= MAX_CACHED_TARGETS) this.#targets.clear();
      this.#targets.set(url, target);
    }
    return target;
  }
}

/** The proxy http agents are reached through (absolute-form requests), named without credentials. */
function forwardProxy(proxy: ProxyOption): string | undefined {
  const url = proxy === 'env' ? (process.env.http_proxy ?? process.env.HTTP_PROXY) : proxy;
  return url === undefined || url === '' ? undefined : proxyName(url);
}
