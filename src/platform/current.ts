/**
 * The platform this build runs on: `node.ts` in the Node build; the web build takes `current.web.ts`
 * in this module's place (scripts/bundle.mjs), so this is the one import of a platform. Nothing under
 * `platform/` imports the rest of the package, so `platform` may be used anywhere, also while modules
 * are being evaluated.
 */
export { platform } from './node.js';
