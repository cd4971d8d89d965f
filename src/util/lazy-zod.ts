/**
 * zod (its functional `zod/mini` API: the same checks and issues as classic zod, a third of the size in
 * a browser bundle), loaded on first use. Importing a2a-resilient must not pay for zod (~35 ms and ~10 MB on Node
 * 20): the hot paths answer with hand-written predicates (`protocol/wire-check.ts`, `card-check.ts`)
 * and zod runs only when one says no (to name the offending field) or where no predicate exists.
 * Schema modules import `z` from here instead of from 'zod' and wrap each top-level schema in
 * {@link lazy}, so a schema is built the first time something touches it.
 */
import type * as Z from 'zod/mini';
import type { en } from 'zod/locales';
import { loadZod } from './load-zod.js';
import type { ZodSubset } from './zod-subset.js';

/**
 * `build()`'s value, built the first time any property of the returned object is read (or its keys
 * listed): a stand-in for the value itself, so `lazy(() => z.object(...))` is used like the schema.
 * zod's schemas hold their methods as closures over the schema (no `this`), and zod tells schemas
 * apart by their `_zod` member (read through here like any other), so a stand-in works wherever the
 * schema would; it also works inside other schemas built later (`z.array(lazySchema)`).
 * @throws whatever `build` throws, on first use.
 */
export function lazy<T extends object>(build: () => T): T {
  let value: T | undefined;
  const real = (): T => (value ??= build());
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, v) => Reflect.set(real(), key, v),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: the stand-in's own (empty) target cannot vouch for a fixed property.
    getOwnPropertyDescriptor: (_target, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d === undefined ? undefined : { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

let loaded: ZodSubset | undefined;

/**
 * Hands over zod's `z` imported by an entry point that loads it anyway (`a2a-resilient/push`: it
 * must run where `require` does not exist); first one wins.
 */
export function provideZod(z: ZodSubset): void {
  loaded ??= z;
}

/**
 * zod's `z` (the members the package uses), loaded on first use of any member: the ones provided,
 * else this build's (`load-zod.ts`).
 */
export const z: ZodSubset = lazy(() => (loaded ??= loadZod()));

let english: { error: ReturnType<typeof en>['localeError'] } | undefined;

/**
 * The parse options every `safeParse` whose issues reach a caller passes: zod's English messages
 * (`Invalid input: expected string, received number`), whatever locale the application configured.
 */
export function inEnglish(): { error: ReturnType<typeof en>['localeError'] } {
  return (english ??= { error: z.en().localeError });
}

/** zod's types under the usual names (`z.infer<typeof Schema>`…), as `import { z } from 'zod/mini'` gives them. */
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace z {
  export type infer<T> = Z.infer<T>;
  export type output<T> = Z.output<T>;
  export type input<T> = Z.input<T>;
  export type ZodType<O = unknown, I = unknown> = Z.ZodMiniType<O, I>;
  export type ZodError<T = unknown> = Z.core.$ZodError<T>;
  export namespace core {
    export type $ZodIssue = Z.core.$ZodIssue;
  }
}
