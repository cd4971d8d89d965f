import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import type { EngineRequest, EngineResponse, HttpEngine } from './engine.js';
import { iterableSource } from './body-source.js';
import { ConnectTracker } from './connect-tracker.js';
import { normalizeTransportError } from './normalize-error.js';
import { StreamedResponse } from './streamed-response.js';
import { Watchdog } from './watchdog.js';

/** Far beyond any timer of ours: undici's own coarse timers must never be the ones that fire. */
const UNDICI_CONNECT_TIMEOUT_MS = 10 * 60_000;

/** The pool the undici engine owns when no dispatcher is supplied. */
export const DEFAULT_AGENT_OPTIONS: Readonly<Agent.Options> = Object.freeze({
  connections: 64,
  pipelining: 1,
  keepAliveTimeout: 4_000,
  headersTimeout: 0,
  bodyTimeout: 0,
  connect: { timeout: UNDICI_CONNECT_TIMEOUT_MS },
});

/** Called when a request got a socket and is being written. Keyed by the request's signal. */
const onSocket = new WeakMap<AbortSignal, () => void>();

/**
 * An undici interceptor that reports the moment a request is handed a connected socket
 * (`onRequestStart`), which ends the connect phase.
 */
function socketProbe(dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch {
  return (options, handler) => {
    const signal: unknown = Reflect.get(options, 'signal');
    const hook = signal instanceof AbortSignal ? onSocket.get(signal) : undefined;
    if (hook === undefined) return dispatch(options, handler);
    const wrapped: Dispatcher.DispatchHandler = {
      onRequestStart: (controller, context) => {
        hook();
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) =>
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage),
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    };
    return dispatch(options, wrapped);
  };
}

/** Lower-cased header names; repeated headers joined with `, `. */
function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * The default engine: `undici.request` over a keep-alive pool it owns (or a caller's dispatcher, never
 * closed here). Connect, read, idle and deadline timers are our own (precise to a few ms); undici's are off.
 */
export class UndiciEngine implements HttpEngine {
  readonly name = 'undici';
  readonly #owned: Agent | undefined;
  readonly #tracker: ConnectTracker | undefined;
  readonly #dispatcher: Dispatcher;

  /** `dispatcher`: a caller-supplied undici dispatcher; without it the engine creates its own `Agent`. */
  constructor(options: { dispatcher?: Dispatcher | undefined } = {}) {
    this.#tracker = options.dispatcher === undefined ? new ConnectTracker(UNDICI_CONNECT_TIMEOUT_MS) : undefined;
    this.#owned = this.#tracker === undefined ? undefined : new Agent({ ...DEFAULT_AGENT_OPTIONS, connect: this.#tracker.connect });
    const base = options.dispatcher ?? this.#owned;
    if (base === undefined) throw new TypeError('unreachable: no dispatcher');
    this.#dispatcher = base.compose(socketProbe);
  }

  /** The pool this engine owns (for stats in tests and diagnostics); `undefined` with a caller's dispatcher. */
  get agent(): Agent | undefined {
    return this.#owned;
  }

  /**
   * Sends the request; resolves when response headers arrive. With a caller-supplied dispatcher a
   * request abandoned while connecting stays queued in that dispatcher until its own connect timeout.
   * @throws A2AClientError `connect-timeout`, `read-timeout`, `deadline-exceeded`, `aborted`, `connection`.
   */
  async send(req: EngineRequest): Promise<EngineResponse> {
    const started = performance.now();
    const watchdog = new Watchdog({ signal: req.signal, deadline: req.deadline });
    const signal = watchdog.signal;
    onSocket.set(signal, () => {
      watchdog.sent = true;
      watchdog.arm('read-timeout', req.timeouts.readMs);
    });
    watchdog.arm('connect-timeout', req.timeouts.connectMs);
    const pending = watchdog.failure
      ? Promise.reject(watchdog.failure)
      : request(req.url, {
          dispatcher: this.#dispatcher,
          method: req.method,
          headers: req.headers,
          body: req.body ?? null,
          signal,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
    try {
      const res = await watchdog.race(pending);
      watchdog.disarm();
      onSocket.delete(signal);
      return new StreamedResponse({
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        // Destroying an unread body makes undici emit UND_ERR_ABORTED on it: handled here, not uncaught.
        source: iterableSource(res.body, () => {
          res.body.once('error', ignoreClosedBody);
          res.body.destroy();
        }),
        watchdog,
        request: req,
      });
    } catch (error) {
      onSocket.delete(signal);
      watchdog.dispose();
      // undici keeps a request queued until its connection attempt ends: end ours now.
      if (!watchdog.sent && watchdog.failure !== undefined) this.#tracker?.abandon(req.url, started);
      // If undici still answers after our timer fired, drop that response.
      pending.then(
        (late) => {
          late.body.once('error', ignoreClosedBody);
          late.body.destroy();
        },
        () => undefined,
      );
      throw watchdog.failure ?? normalizeTransportError(error, watchdog.sent);
    }
  }

  /** Closes the pool this engine owns; a caller-supplied dispatcher is left open. */
  async close(): Promise<void> {
    this.#tracker?.abandonAll();
    await this.#owned?.close();
  }
}

/** The error a body emits when we destroy it ourselves: expected, nothing to report. */
function ignoreClosedBody(error: unknown): void {
  void error;
}
