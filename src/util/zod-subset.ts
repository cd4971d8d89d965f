/**
 * The members of zod's `z` this package uses, imported by name: a bundler then keeps only these and
 * what they need (measured with esbuild, minified + gzipped: ~8 KB of `zod/mini` with the English
 * messages, against ~28 KB for the same members of classic zod and ~91 KB for its whole `z`). Handed to `lazy-zod.ts` where
 * there may be no `require()`: by the web build (`load-zod.web.ts`) and `a2a-resilient/push`.
 */
import { array, boolean, catch as zCatch, discriminatedUnion, enum as zEnum, lazy, literal, looseObject, maxLength, minLength, nonnegative, null as zNull, number, object, optional, record, refine, strictObject, string, union, unknown } from 'zod/mini';
import type * as Z from 'zod/mini';
import { en } from 'zod/locales';

/**
 * The members of zod's `z` the package uses: `lazy-zod.ts`'s `z` offers only these, so the type
 * checker keeps {@link zodSubset} (what the web build bundles) complete.
 */
export type ZodSubset = Pick<
  typeof Z,
  | 'array' | 'boolean' | 'catch' | 'discriminatedUnion' | 'enum' | 'lazy' | 'literal' | 'looseObject' | 'maxLength' | 'minLength' | 'nonnegative' | 'null' | 'number'
  | 'object' | 'optional' | 'record' | 'refine' | 'strictObject' | 'string' | 'union' | 'unknown'
> & {
  /** zod's English messages (`zod/locales`), which `zod/mini` does not load itself. */
  readonly en: typeof en;
};

/** zod's members that this package's schemas use (see {@link ZodSubset}). */
export const zodSubset: ZodSubset = {
  array, boolean, catch: zCatch, discriminatedUnion, en, enum: zEnum, lazy, literal, looseObject, maxLength, minLength, nonnegative,
  null: zNull, number, object, optional, record, refine, strictObject, string, union, unknown,
};
