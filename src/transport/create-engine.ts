import { A2AClientError } from '../errors/a2a-client-error.js';
import type { EngineOptions, HttpEngine } from './engine.js';
import { FetchEngine } from './fetch-engine.js';
import { undiciSupport } from './undici-support.js';

/** Options a WHATWG fetch cannot honour, and why (the web build, which has no undici engine). */
const NODE_ONLY = {
  dispatcher: 'an undici dispatcher needs Node',
  proxy: 'a WHATWG fetch takes no proxy settings (the browser or runtime chooses the proxy)',
  tls: 'a WHATWG fetch takes no TLS settings (the browser or runtime owns TLS)',
} as const;

/**
 * Picks the engine for a client; the one place that does. The fetch engine when `options.fetch` is
 * set. Else, in the Node build (Node, Bun, Deno), the undici engine (over `options.dispatcher` if
 * given, which the engine will not close; else its own pool, through `options.proxy` and with
 * `options.tls`; with `options.compression` it sends `Accept-Encoding`, fetch sends its own) where the
 * runtime's undici can carry it or a dispatcher is given, and the fetch engine over the runtime's own
 * `globalThis.fetch` where it cannot (Bun, Deno without `--allow-env`: `undici-support.ts`); in the web
 * build, which has no undici, the fetch engine over `globalThis.fetch` (looked up at each call).
 * @throws A2AClientError kind `unsupported` (field `proxy` or `tls`) when `proxy` or `tls` is combined
 * with `fetch` (a WHATWG fetch takes neither: the platform does not allow it) or with `dispatcher`
 * (configure your dispatcher instead), or set where the undici engine cannot run, or for a proxy URL
 * that is not http(s); in the web build (field `dispatcher`, `proxy` or `tls`) for any of the three.
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
  if (undiciSupport === undefined) {
    for (const field of ['dispatcher', 'proxy', 'tls'] as const) {
      if (options[field] !== undefined) {
        throw new A2AClientError({
          kind: 'unsupported',
          message: `options.${field} is not supported in this build (browser/worker): ${NODE_ONLY[field]}`,
          field,
          phase: 'before-send',
        });
      }
    }
    return new FetchEngine('global');
  }
  if (options.dispatcher === undefined && !undiciSupport.worksHere()) {
    if (network !== undefined) {
      throw new A2AClientError({
        kind: 'unsupported',
        message: `options.${network} needs the undici engine, which this runtime cannot run (Bun's own undici has no Agent#dispatch; Deno needs --allow-env); configure the ${network} in the runtime instead`,
        field: network,
        phase: 'before-send',
      });
    }
    return new FetchEngine('global');
  }
  return undiciSupport.engine(options);
}
