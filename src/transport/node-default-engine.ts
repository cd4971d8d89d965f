import { A2AClientError } from '../errors/a2a-client-error.js';
import type { EngineOptions, HttpEngine } from './engine.js';
import { FetchEngine } from './fetch-engine.js';
import { UndiciEngine } from './undici-engine.js';
import { undiciCore } from './undici-lib.js';

/** Deno's permission query, where it exists. */
interface DenoPermissions {
  querySync?(descriptor: { name: 'env'; variable: string }): { state: string };
}

let usable: boolean | undefined;

/**
 * The default engine of the Node build (Node, Bun, Deno) for a client that passes no `fetch`: the
 * undici engine where the runtime's undici can carry it ({@link undiciEngineWorksHere}), over
 * `options.dispatcher` if given; else the fetch engine over the runtime's own `globalThis.fetch`.
 * @throws A2AClientError kind `unsupported` (field `proxy` or `tls`) when `proxy` or `tls` is set where
 * the undici engine cannot run (a WHATWG fetch takes neither), or for a proxy URL that is not http(s).
 */
export function nodeDefaultEngine(options: EngineOptions): HttpEngine {
  if (options.dispatcher === undefined && !undiciEngineWorksHere()) {
    const network = options.proxy !== undefined ? 'proxy' : options.tls !== undefined ? 'tls' : undefined;
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
  return new UndiciEngine({ dispatcher: options.dispatcher, proxy: options.proxy, tls: options.tls, compression: options.compression });
}

/**
 * Whether the `undici` this runtime hands us can carry the undici engine. True on Node. On Deno, which
 * runs the npm package over its `node:net`, when the program may read the environment (`--allow-env`:
 * undici reads `JEST_WORKER_ID` when it opens its first connection, and fails without it); measured
 * there, the undici engine costs less CPU per call than Deno's fetch (bench/runtime-engines.mjs). False
 * on Bun, which substitutes a `undici` module of its own whose `Agent` has neither `dispatch` nor
 * `close`. Where false, the default engine is the fetch engine over the runtime's own fetch.
 * Checked once per process.
 * @throws whatever loading undici throws (a broken install).
 */
export function undiciEngineWorksHere(): boolean {
  if (usable === undefined) {
    const proto: unknown = undiciCore().Agent.prototype;
    const dispatches = typeof proto === 'object' && proto !== null && 'dispatch' in proto && typeof proto.dispatch === 'function' && 'close' in proto && typeof proto.close === 'function';
    usable = dispatches && !envDenied();
  }
  return usable;
}

/** True on Deno without permission to read the environment (undici needs it). */
function envDenied(): boolean {
  const deno = (globalThis as { Deno?: { permissions?: DenoPermissions } }).Deno;
  const permissions = deno?.permissions;
  if (permissions?.querySync === undefined) return false;
  return permissions.querySync({ name: 'env', variable: 'JEST_WORKER_ID' }).state !== 'granted';
}
