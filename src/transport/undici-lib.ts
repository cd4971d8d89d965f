import { createRequire } from 'node:module';

/** The undici package's exports (its public API). */
export type UndiciLib = typeof import('undici');

let lib: UndiciLib | undefined;

/**
 * undici, loaded on first use instead of by a static `import`: importing a2a-resilient must not pay
 * for it (~70 ms and ~18 MB on Node 20), an engine or a proxy dispatcher is the first to need it.
 * Synchronous (`require`: undici is CommonJS, so this is the very instance `import 'undici'` gives,
 * and a caller's own dispatchers, errors and global dispatcher are the same objects as ours).
 * @throws whatever loading undici throws (a broken install).
 */
export function undici(): UndiciLib {
  return (lib ??= createRequire(import.meta.url)('undici') as UndiciLib);
}
