import { A2AClientError } from '../errors/a2a-client-error.js';
import type { EngineOptions, HttpEngine } from './engine.js';
import { FetchEngine } from './fetch-engine.js';
import { platform } from '../platform/current.js';

/**
 * Picks the engine for a client: the fetch engine when `options.fetch` is set, else the platform's
 * default (the web build: the fetch engine over `globalThis.fetch`; Node: the undici engine
 * (over `options.dispatcher` if given, which the engine will not close; else its own pool, through
 * `options.proxy` and with `options.tls`; with `options.compression` it sends `Accept-Encoding`,
 * fetch sends its own)).
 * @throws A2AClientError kind `unsupported` (field `proxy` or `tls`) when `proxy` or `tls` is combined
 * with `fetch` (a WHATWG fetch takes neither: the platform does not allow it) or with `dispatcher`
 * (configure your dispatcher instead), or for a proxy URL that is not http(s); in the web build for
 * `dispatcher`, `proxy` or `tls` at all.
 */
export function createEngine(options: EngineOptions = {}): HttpEngine {
  const network = options.proxy !== undefined ? 'proxy' : options.tls !== undefined ? 'tls' : undefined;
  if (network !== undefined && options.fetch !== undefined) {
    throw new A2AClientError({
      kind: 'unsupported',
      message: `options.${network} cannot be combined with options.fetch: a WHATWG fetch takes no proxy or TLS settings (the platform does not allow it); drop fetch to use the undici engine`,
      field: network,
      phase: 'before-send',
    });
  }
  if (network !== undefined && options.dispatcher !== undefined) {
    throw new A2AClientError({
      kind: 'unsupported',
      message: `options.${network} cannot be combined with options.dispatcher: configure the proxy or TLS on your dispatcher (undici's ProxyAgent, Agent connect options)`,
      field: network,
      phase: 'before-send',
    });
  }
  if (options.fetch !== undefined) return new FetchEngine(options.fetch);
  return platform.defaultEngine(options);
}
