import { A2AClientError } from '../errors/a2a-client-error.js';
import type { EngineOptions, HttpEngine } from './engine.js';
import { FetchEngine } from './fetch-engine.js';
import { UndiciEngine } from './undici-engine.js';
import { undiciEngineWorksHere } from './undici-support.js';

/**
 * Picks the engine for a client: the fetch engine when `options.fetch` is set, else the undici engine
 * (over `options.dispatcher` if given, which the engine will not close; else its own pool, through
 * `options.proxy` and with `options.tls`; with `options.compression` it sends `Accept-Encoding`,
 * fetch sends its own). Where the runtime's undici cannot carry the engine (Bun, see
 * {@link undiciEngineWorksHere}) the default is the fetch engine over `globalThis.fetch`.
 * @throws A2AClientError kind `unsupported` (field `proxy` or `tls`) when `proxy` or `tls` is combined
 * with `fetch` (a WHATWG fetch takes neither: the platform does not allow it) or with `dispatcher`
 * (configure your dispatcher instead), or is set where the runtime's undici cannot carry the engine;
 * or for a proxy URL that is not http(s).
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
  if (options.dispatcher === undefined && !undiciEngineWorksHere()) {
    if (network !== undefined) {
      throw new A2AClientError({
        kind: 'unsupported',
        message: `options.${network} needs the undici engine, and this runtime's undici cannot carry it (its Agent has no dispatch: Bun substitutes its own undici); configure the ${network} in the runtime instead`,
        field: network,
        phase: 'before-send',
      });
    }
    return new FetchEngine('global');
  }
  return new UndiciEngine({ dispatcher: options.dispatcher, proxy: options.proxy, tls: options.tls, compression: options.compression });
}
