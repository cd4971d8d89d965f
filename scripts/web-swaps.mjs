// The swap points of the web build (dist/web, made by scripts/bundle.mjs; bench/bundle-size.mjs builds
// the sources the same way): where a module `name.ts` has a sibling `name.web.ts`, the web build takes
// the sibling wherever the module is imported. See scripts/bundle.mjs for what is swapped and why.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** esbuild plugin: a relative import of `name.js` resolves to `name.web.js` (or, on sources, `name.web.ts`) when that exists. */
export const webSwaps = {
  name: 'web-swaps',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const base = join(args.resolveDir, args.path.slice(0, -'.js'.length));
      if (base.endsWith('.web')) return undefined;
      for (const ext of ['.js', '.ts']) {
        const sibling = `${base}.web${ext}`;
        // A sibling may import its Node module (types only, which the compiler erases): never itself.
        if (args.importer !== sibling && existsSync(sibling)) return { path: sibling };
      }
      return undefined;
    });
  },
};
