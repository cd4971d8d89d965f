import type { PeerDependency } from '../src/util/require-peer.js';

/**
 * msw, the peer dependency of the mocks, as `a2a-resilient/mocks` and the CLI's `demo` name it when
 * it is not installed: one install hint for both.
 */
export function mswPeer(entry: string): PeerDependency {
  return { entry, name: 'msw', install: 'npm install --save-dev msw@^2.9.0' };
}
