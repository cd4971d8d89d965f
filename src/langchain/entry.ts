/**
 * `a2a-resilient/langchain` as published (the `exports` map points here; its types are those of
 * `./index.js`). It checks that `@langchain/core`, this entry's optional peer dependency, can be found before
 * loading the tool, so a project without it gets one error that says what to install instead of
 * Node's bare "Cannot find package '@langchain/core' imported from …" (loaded with `require()` of its ES module,
 * as `a2a-resilient/redis` is: see `src/redis/entry.ts`).
 *
 * @throws Error with `code` `'ERR_MODULE_NOT_FOUND'` and the resolution failure as `cause`, when
 * `@langchain/core` is not installed.
 */
import { requireWithPeer } from '../util/require-peer.js';
import type * as Tool from './index.js';

const tool = requireWithPeer<typeof Tool>(import.meta.url, './index.js', { entry: 'a2a-resilient/langchain', name: '@langchain/core', label: '@langchain/core (1.x)', install: 'npm install @langchain/core' });

export const { a2aTool } = tool;
