/**
 * `a2a-resilient/redis` as published (the `exports` map points here; its types are those of
 * `./index.js`). It checks that `redis`, this entry's optional peer dependency, can be found before
 * loading the store, so a project without it gets one error that says what to install instead of
 * Node's bare "Cannot find package 'redis' imported from …".
 *
 * As in `a2a-resilient/mocks`: a static `import` would fail while the module graph is linked, before
 * this file runs, so the store is loaded with `require()` of its ES module (Node ≥ 20.19) —
 * synchronous, the same whether this entry was reached by `import` or `require`, no top-level await.
 *
 * @throws Error with `code` `'ERR_MODULE_NOT_FOUND'` and the resolution failure as `cause`, when
 * `redis` is not installed.
 */
import { requireWithPeer } from '../util/require-peer.js';
import type * as Redis from './index.js';

const store = requireWithPeer<typeof Redis>(import.meta.url, './index.js', { entry: 'a2a-resilient/redis', name: 'redis', label: 'redis (node-redis)', install: 'npm install redis@^6.0.0' });

export const { redisStateStore } = store;
