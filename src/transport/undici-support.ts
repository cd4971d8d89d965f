import { undici } from './undici-lib.js';

let usable: boolean | undefined;

/**
 * Whether the `undici` this runtime hands us can carry the undici engine: its `Agent` dispatches and
 * closes. True on Node and on Deno (which runs the npm package over its `node:net`; measured there,
 * the undici engine costs less CPU per call than Deno's fetch: bench/runtime-engines.mjs). False on Bun,
 * which substitutes a `undici` module of its own whose `Agent` has neither `dispatch` nor `close`:
 * there the fetch engine over Bun's own fetch is the default. Checked once per process.
 * @throws whatever loading undici throws (a broken install).
 */
export function undiciEngineWorksHere(): boolean {
  if (usable === undefined) {
    const proto: unknown = undici().Agent.prototype;
    usable = typeof proto === 'object' && proto !== null && 'dispatch' in proto && typeof proto.dispatch === 'function' && 'close' in proto && typeof proto.close === 'function';
  }
  return usable;
}
