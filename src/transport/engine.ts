import type { Dispatcher } from 'undici';
import type { CallScope } from './call-scope.js';
import type { ProxyOption } from './proxy-dispatcher.js';
import type { TlsOptions } from './tls-options.js';
import { A2AClientError } from '../errors/a2a-client-error.js';

/** The four timeout layers. Each fires as its own error kind. */
export interface Timeouts {
  /**
   * Bounds opening the connection (TCP + TLS). Fires `connect-timeout`; nothing was sent.
   * @default 5000
   */
  connectMs: number;
  /**
   * Bounds waiting for response headers and each gap between chunks of a unary body. Fires
   * `read-timeout`.
   * @default 60000
   */
  readMs: number;
  /**
   * Bounds the gap between two SSE events of a stream. Fires `idle-timeout`.
   * @default 60000
   */
  streamIdleMs: number;
  /**
   * One deadline over the whole call: every attempt and every backoff wait. Fires `deadline-exceeded`.
   * @default 120000
   */
  totalMs: number;
}

/** The defaults of {@link Timeouts}. */
export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = Object.freeze({
  connectMs: 5_000,
  readMs: 60_000,
  streamIdleMs: 60_000,
  totalMs: 120_000,
});

/**
 * `base` with the numbers of each override over it, later ones winning; an `undefined` field is no
 * override (an optional setting passed through as `undefined` keeps the value below it).
 * @throws A2AClientError kind `unsupported` (field `timeouts.<name>` / `limits.<name>`) for a value
 * that is not a number ≥ 0 (`NaN`, negative, a string); `Infinity` is allowed (no bound).
 */
export function withSettings<T extends object>(what: 'timeouts' | 'limits', base: Readonly<T>, ...overrides: Array<Partial<T> | undefined>): T {
  const out = { ...base };
  for (const override of overrides) {
    if (override === undefined) continue;
    for (const [name, value] of Object.entries(override) as Array<[keyof T & string, unknown]>) {
      if (value === undefined) continue;
      if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
        throw new A2AClientError({ kind: 'unsupported', message: `${what}.${name} must be a number ≥ 0, got ${typeof value === 'number' ? String(value) : typeof value}`, field: `${what}.${name}` });
      }
      (out as Record<string, unknown>)[name] = value;
    }
  }
  return out;
}

/** Caps on what an untrusted peer can make the client buffer. */
export interface Limits {
  /**
   * Largest unary response body; beyond it the call fails with `invalid-response`.
   * @default 16 MiB
   */
  maxResponseBytes: number;
  /**
   * Largest single SSE event, in bytes as received: its lines and their line ends (comments included),
   * from the blank line before it to the one that ends it. Beyond it the stream fails with
   * `invalid-response` (field `event`), after the events before it; however the stream is chunked.
   * @default 4 MiB
   */
  maxEventBytes: number;
}

/** The defaults of {@link Limits}. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxResponseBytes: 16 * 1024 * 1024,
  maxEventBytes: 4 * 1024 * 1024,
});

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
