/**
 * The members of zod's `z` this package uses, imported by name: a bundler then keeps only these and
 * what they need (measured with esbuild, minified + gzipped: ~8 KB of `zod/mini` with the English
 * messages, against ~28 KB for the same members of classic zod and ~91 KB for its whole `z`). Handed to `lazy-zod.ts` by the entry points
 * that may run without `require()` (the web build, `a2a-resilient/push`).
 */
import { array, boolean, catch as zCatch, discriminatedUnion, enum as zEnum, lazy, literal, looseObject, maxLength, minLength, nonnegative, null as zNull, number, object, optional, record, refine, strictObject, string, union, unknown } from 'zod/mini';
import { en } from 'zod/locales';
import type { ZodSubset } from './lazy-zod.js';

/** zod's members that this package's schemas use (see {@link ZodSubset}). */
export const zodSubset: ZodSubset = {
  array, boolean, catch: zCatch, discriminatedUnion, en, enum: zEnum, lazy, literal, looseObject, maxLength, minLength, nonnegative,
  null: zNull, number, object, optional, record, refine, strictObject, string, union, unknown,
};
