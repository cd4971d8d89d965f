// `node --import ./scripts/ts-hooks.mjs file.ts`: runs a TypeScript file of this repository (the examples, the
// docs' blocks) on every Node the package supports. Node 22.18+ strips types itself; Node 20 does not, so these
// hooks do it for every Node alike, with esbuild (a dev dependency): types removed, nothing else changed.
// `npm run example examples/quick-start.ts` uses it.
import { register } from 'node:module';

register('./ts-loader.mjs', import.meta.url);
