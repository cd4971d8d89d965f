/**
 * The platform this build runs on. The Node build takes `node.ts`; scripts/bundle.mjs builds the web
 * output with `./node.js` resolved to `./web.js` here, so this is the only import that differs.
 * `node.ts` imports the engines and the gRPC binding, which import this module again: use `platform`
 * inside functions only, never while modules are being evaluated.
 */
export { platform } from './node.js';
