import type { Dispatcher } from 'undici';
import type { CallScope } from './call-scope.js';
import type { ProxyOption } from './proxy-dispatcher.js';
import type { Limits, Timeouts } from './settings.js';
import type { TlsOptions } from './tls-options.js';

/** One HTTP request as the protocol layer hands it to an engine. */
export interface EngineRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body?: string;
  /**
   * The call's scope (its deadline and the caller's signal): when it fails the request ends at once,
   * with kind `deadline-exceeded` or `aborted` and the phase it reached.
   */
  scope?: CallScope;
  /** Per-attempt timers. `totalMs` is not read here: the deadline is the `scope`'s. */
  timeouts: Pick<Timeouts, 'connectMs' | 'readMs' | 'streamIdleMs'>;
  limits: Limits;
}

/** One Server-Sent Event. */
export interface SseEvent {
  /** The event's own `id:` field, if it had one. */
  id?: string | undefined;
  /** The `event:` field, if any (e.g. `error`). */
  event?: string | undefined;
  /** The `data:` lines joined with `\n`. */
  data: string;
}

/** What decoding one network read of SSE events gave: its items, and the failure that ends the stream after them. */
export interface DecodedBatch<T> {
  items: T[];
  failure?: { error: unknown } | undefined;
}

/** A response whose headers have arrived. Read its body once: as text or as events. */
export interface EngineResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /**
   * The whole body, decoded as UTF-8. Bounded by `limits.maxResponseBytes` (`invalid-response`) and
   * by `timeouts.readMs` between chunks (`read-timeout`).
   * @throws A2AClientError
   */
  text(): Promise<string>;
  /**
   * The body as SSE events decoded by `decode`, one network read at a time, inside the read loop (no
   * layer in between). Each gap is bounded by `timeouts.streamIdleMs` (`idle-timeout`), each event
   * by `limits.maxEventBytes` (`invalid-response`). A batch's `failure` is thrown after its items;
   * every failure (the transport's own and a batch's) passes through `onError` first. `return()`
   * (a `break`) closes the connection, even before the first read.
   * @throws What `onError` returns for an A2AClientError or a batch's failure.
   */
  decoded<T>(decode: (events: readonly SseEvent[]) => DecodedBatch<T>, onError?: (error: unknown) => unknown): AsyncIterableIterator<T[]>;
  /**
   * The `id:` of the last event delivered with one (SSE keeps it across events). An `id:` in a block
   * without `data` delivers no event and is not seen here.
   */
  readonly lastEventId: string | undefined;
  /** Releases the response without reading it (closes the connection if the body is unread). */
  close(): Promise<void>;
}

/**
 * Sends HTTP requests. Every failure is an `A2AClientError`; the same failure gives the same kind
 * whichever engine runs it.
 */
export interface HttpEngine {
  /** Which engine this is, for diagnostics. */
  readonly name: string;
  /**
   * Sends the request and resolves when response headers arrive.
   * @throws A2AClientError of kinds `connect-timeout`, `read-timeout`, `deadline-exceeded`,
   * `aborted`, `connection`.
   */
  send(request: EngineRequest): Promise<EngineResponse>;
  /** Closes pooled connections the engine owns (not a caller-supplied dispatcher). */
  close(): Promise<void>;
}

/** How a client picks its engine. */
export interface EngineOptions {
  /** Use WHATWG `fetch` (a custom one). Without it, the undici engine is used. */
  fetch?: typeof globalThis.fetch | 'global';
  /** A caller-supplied undici dispatcher for the undici engine (it is not closed by the client). */
  dispatcher?: Dispatcher;
  /** The undici engine asks for compressed answers (`Accept-Encoding`); see `ClientOptions.compression`. */
  compression?: boolean | undefined;
  /** Reach agents through a proxy: `'env'` (the proxy variables) or a proxy URL (undici engine only). */
  proxy?: ProxyOption;
  /** TLS settings for connections to agents (undici engine only). */
  tls?: TlsOptions;
}
