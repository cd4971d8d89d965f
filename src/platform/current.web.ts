/** The platform of the web build, in place of `current.ts` (scripts/bundle.mjs): `web.ts`. */
export { platform } from './web.js';
