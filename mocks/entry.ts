/**
 * `a2a-resilient/mocks` as published (the `exports` map points here; its types are those of
 * `./index.js`). It checks that msw, the mocks' peer dependency, can be found before loading them, so
 * a project without msw gets one error that says what to install instead of Node's bare "Cannot find
 * package 'msw' imported from …/mocks/core.js".
 *
 * A static `import` cannot do that: a package missing anywhere in the module graph fails the whole
 * graph while it is linked, before any code of this file runs. So the mocks are loaded with
 * `require()` of their ES module (Node ≥ 20.19), which is synchronous and works the same whether this
 * entry was reached by `import` or by `require` (no top-level await, which `require` would refuse).
 * Their own imports, msw's included, still resolve as ES modules: one msw instance with the
 * caller's `setupServer`.
 *
 * @throws Error with `code` `'ERR_MODULE_NOT_FOUND'` (Node's own code for it) and the resolution
 * failure as `cause`, when msw is not installed.
 */
import { requireWithPeer } from '../src/util/require-peer.js';
import type * as Mocks from './index.js';
import { mswPeer } from './msw-peer.js';

const mocks = requireWithPeer<typeof Mocks>(import.meta.url, './index.js', mswPeer('a2a-resilient/mocks'));

export const {
  MockAgent,
  mockAgent,
  TaskStore,
  delay,
  errorInfo,
  failFirst,
  failedTask,
  freshIds,
  hang,
  httpError,
  jsonRpcError,
  replyTask,
  replyText,
  reset,
  retryInfo,
  stream,
} = mocks;
