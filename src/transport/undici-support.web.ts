/**
 * The web build's undici: none (scripts/bundle.mjs puts this module in place of `undici-support.ts`).
 * `create-engine.ts` then gives every client the fetch engine and refuses what needs Node's sockets.
 */
import type { UndiciSupport } from './undici-support.js';

/** No undici engine in this build. */
export const undiciSupport: UndiciSupport | undefined = undefined;
