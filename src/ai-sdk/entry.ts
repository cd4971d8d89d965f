/**
 * `a2a-resilient/ai-sdk` as published (the `exports` map points here; its types are those of
 * `./index.js`). It checks that `ai`, this entry's optional peer dependency, can be found before
 * loading the tool, so a project without it gets one error that says what to install instead of
 * Node's bare "Cannot find package 'ai' imported from …" (loaded with `require()` of its ES module,
 * as `a2a-resilient/redis` is: see `src/redis/entry.ts`).
 *
 * @throws Error with `code` `'ERR_MODULE_NOT_FOUND'` and the resolution failure as `cause`, when
 * `ai` is not installed.
 */
import { requireWithPeer } from '../util/require-peer.js';
import type * as Tool from './index.js';

const tool = requireWithPeer<typeof Tool>(import.meta.url, './index.js', { entry: 'a2a-resilient/ai-sdk', name: 'ai', label: 'ai (the Vercel AI SDK, 5, 6 or 7)', install: 'npm install ai' });

export const { a2aTool, a2aToolName } = tool;
