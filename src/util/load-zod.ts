/**
 * Where the Node build gets zod: `require()` (synchronous: its CommonJS build), when a schema is
 * first used. `node:module` is reached through `process.getBuiltinModule` (Node ≥ 20.16), not a static
 * import, so no entry point that may run outside Node imports a `node:` module because of this file.
 * The web build has `load-zod.web.ts` in this module's place (scripts/bundle.mjs).
 */
import type * as Z from 'zod/mini';
import type { en } from 'zod/locales';
import type { ZodSubset } from './zod-subset.js';

/**
 * zod's members, required.
 * @throws Error in a runtime without `require` (where an entry point must provide zod: `provideZod`).
 */
export function loadZod(): ZodSubset {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
  if (nodeModule === undefined) throw new Error('a2a-resilient: zod could not be loaded (no require() in this runtime)');
  const require = nodeModule.createRequire(import.meta.url);
  return { ...(require('zod/mini') as typeof Z), en: (require('zod/locales') as { en: typeof en }).en };
}
