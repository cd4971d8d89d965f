/**
 * The undici engine as the Node build (Node, Bun, Deno) has it: how to make one, and whether the
 * runtime's undici can carry it. `create-engine.ts` decides with this; the web build has
 * `undici-support.web.ts` in this module's place (scripts/bundle.mjs): no undici at all.
 */
import type { EngineOptions, HttpEngine } from './engine.js';
import { UndiciEngine } from './undici-engine.js';
import { undiciCore } from './undici-lib.js';

/** What the engine choice needs to know of undici in this build. */
export interface UndiciSupport {
  /**
   * Whether the runtime's undici can carry the undici engine without a dispatcher of the caller's
   * ({@link undiciEngineWorksHere}).
   * @throws whatever loading undici throws (a broken install).
   */
  worksHere(): boolean;
  /** The undici engine over `options.dispatcher` if given (which it will not close), else its own pool, through `options.proxy` and with `options.tls`. */
  engine(options: EngineOptions): HttpEngine;
}

/** Deno's permission query, where it exists. */
interface DenoPermissions {
  querySync?(descriptor: { name: 'env'; variable: string }): { state: string };
}

let usable: boolean | undefined;

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

/** The undici engine of the Node build. */
export const undiciSupport: UndiciSupport | undefined = {
  worksHere: undiciEngineWorksHere,
  engine: (options) => new UndiciEngine({ dispatcher: options.dispatcher, proxy: options.proxy, tls: options.tls, compression: options.compression }),
};
