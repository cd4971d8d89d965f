/**
 * Where the web build gets zod: bundled, the members the package uses imported by name (a bundler has
 * no synchronous `require`). In place of `load-zod.ts` (scripts/bundle.mjs).
 */
import { zodSubset, type ZodSubset } from './zod-subset.js';

/** zod's members, as bundled. */
export function loadZod(): ZodSubset {
  return zodSubset;
}
