import type { EngineRequest, EngineResponse, HttpEngine } from './engine.js';
import { webStreamSource } from './body-source.js';
import { normalizeTransportError } from './normalize-error.js';
import { StreamedResponse } from './streamed-response.js';
import { CallScope } from './call-scope.js';
import { ignoreLate } from '../util/ignore-late.js';

/** A WHATWG fetch, or `'global'` for `globalThis.fetch` looked up at each call (msw patches it). */
export type FetchSource = typeof globalThis.fetch | 'global';

/**
 * An engine over any WHATWG `fetch`. Fetch cannot tell when a connection was opened, so the wait for
 * headers is one timer of `max(connectMs, readMs)` reported as `read-timeout` (we cannot know that nothing
 * was sent, so `connect-timeout`, which promises that, is never claimed). Likewise a reset, close,
 * abort or deadline before headers is `after-send` unless the error code proves otherwise. Redirects
 * are not followed here (`redirect: 'manual'`), as with the undici engine: card fetches follow them
 * with our own rules, RPC calls never. Known limit: in a browser `manual` yields an opaque redirect
 * (status 0, no `Location`), so there a redirect cannot be followed or named. Body, stream, deadline
 * and abort handling are the same code as the undici engine's.
 *
 * Content-Encoding is fetch's own business: it sends its own `Accept-Encoding` and hands over the body
 * decoded (Node's fetch: gzip, deflate zlib or raw, br, and zstd on Node 24), so this engine does not
 * decode again. Flushed SSE events still arrive one by one (checked on Node 20), and `limits` apply to
 * the decoded size, since they count what fetch hands over (a compression bomb ends as
 * `invalid-response`); a corrupt stream is `invalid-response` (field `content-encoding`) as on the undici
 * engine. Fetch is laxer in two cases: a truncated stream ends quietly with what decoded, and a coding
 * it does not know is passed on undecoded (both then usually fail as bodies that do not parse).
 *
 * Ending a request early (timeout, deadline, abort, oversize, `break`) closes its connection at once on
 * every Node version. The connection pool is the fetch's own: Node 20 and 22's built-in fetch (undici 6)
 * then opens one spare connection to the origin that carries nothing and closes it after its 4 s
 * keep-alive timeout (Node 24's closes it at once); the next request to that origin may reuse it.
 */
export class FetchEngine implements HttpEngine {
  readonly name = 'fetch';
  readonly #fetch: FetchSource;

  /** `fetch`: the function to call, or `'global'`. */
  constructor(fetch: FetchSource) {
    this.#fetch = fetch;
  }

  /**
   * Sends the request; resolves when response headers arrive.
   * @throws A2AClientError `read-timeout`, `deadline-exceeded`, `aborted`, `connection`.
   */
  async send(req: EngineRequest): Promise<EngineResponse> {
    const scope = new CallScope({ parent: req.scope, request: true });
    scope.arm('read-timeout', Math.max(req.timeouts.connectMs, req.timeouts.readMs));
    const fetchFn = this.#fetch === 'global' ? globalThis.fetch : this.#fetch;
    let pending: Promise<Response>;
    try {
      const init: RequestInit = { method: req.method, headers: req.headers, signal: scope.signal, redirect: 'manual' };
      if (req.body !== undefined) init.body = req.body;
      pending = scope.failure ? Promise.reject(scope.failure) : fetchFn(req.url, init);
      // Fetch cannot say whether the request reached the server: from here on assume it may have.
      if (scope.failure === undefined) scope.sent = true;
    } catch (error) {
      pending = Promise.reject(error);
    }
    try {
      const res = await scope.race(pending);
      scope.disarm();
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return new StreamedResponse({ status: res.status, headers, source: webStreamSource(res.body), scope, request: req });
    } catch (error) {
      scope.dispose();
      pending.then((late) => late.body?.cancel(), ignoreLate).catch(ignoreLate);
      // Only codes that prove nothing was sent (refused, DNS, TLS) give `before-send`.
      throw scope.failure ?? normalizeTransportError(error, scope.sent);
    }
  }

  /** Nothing to close: fetch owns its own pool. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
