/**
 * The members of zod's `z` this package uses, imported by name: a bundler then keeps only these and
 * what they need (measured with esbuild, minified + gzipped: ~29 KB, against ~93 KB for zod's whole
 * `z` namespace, whose locales alone are most of it). Handed to `lazy-zod.ts` by the entry points
 * that may run without `require()` (the web build, `a2a-resilient/push`).
 */
import { array, boolean, discriminatedUnion, enum as zEnum, lazy, literal, looseObject, null as zNull, number, object, record, strictObject, string, union, unknown } from 'zod';
import type { ZodSubset } from './lazy-zod.js';

/** zod's members that this package's schemas use (see {@link ZodSubset}). */
export const zodSubset: ZodSubset = { array, boolean, discriminatedUnion, enum: zEnum, lazy, literal, looseObject, null: zNull, number, object, record, strictObject, string, union, unknown };
