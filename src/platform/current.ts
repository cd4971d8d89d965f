/**
 * The platform this build runs on. The Node build takes `node.ts`; scripts/bundle.mjs builds the web
 * output with `./node.js` resolved to `./web.js` here, so this is the only import that differs.
 */
export { platform } from './node.js';
