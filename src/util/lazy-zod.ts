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

/**
 * The members of zod's `z` the package uses: `z` below offers only these, so the type checker keeps
 * `zod-subset.ts` (what the web build bundles) complete.
 */
export type ZodSubset = Pick<
  typeof Z,
  | 'array' | 'boolean' | 'catch' | 'discriminatedUnion' | 'enum' | 'lazy' | 'literal' | 'looseObject' | 'maxLength' | 'minLength' | 'nonnegative' | 'null' | 'number'
  | 'object' | 'optional' | 'record' | 'refine' | 'strictObject' | 'string' | 'union' | 'unknown'
> & {
  /** zod's English messages (`zod/locales`), which `zod/mini` does not load itself. */
  readonly en: typeof en;
};

let loaded: ZodSubset | undefined;

/**
 * Hands over zod's `z` imported by an entry point that loads it anyway (`a2a-resilient/push`: it
 * must run where `require` does not exist); first one wins.
 */
export function provideZod(z: ZodSubset): void {
  loaded ??= z;
}

/**
 * zod's members: the ones provided, else required (synchronous: its CommonJS build). `node:module` is
 * reached through `process.getBuiltinModule` (Node ≥ 20.16), not a static import, so no entry point
 * that may run outside Node imports a `node:` module because of this file.
 * @throws Error when neither is possible (a runtime without `require`, and no zod provided).
 */
function loadZod(): ZodSubset {
  if (loaded !== undefined) return loaded;
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module');
  if (nodeModule === undefined) throw new Error('a2a-resilient: zod could not be loaded (no require() in this runtime)');
  const require = nodeModule.createRequire(import.meta.url);
  loaded = { ...(require('zod/mini') as typeof Z), en: (require('zod/locales') as { en: typeof en }).en };
  return loaded;
}

/** zod's `z` (the members the package uses), loaded on first use of any member. */
export const z: ZodSubset = lazy(loadZod);

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
