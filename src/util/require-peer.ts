import { createRequire } from 'node:module';

/** An optional peer dependency, as an error names it when it is missing. */
export interface PeerDependency {
  /** What needs it, e.g. `a2a-resilient/mocks` or `a2a-resilient demo`. */
  entry: string;
  /** The package name `require.resolve` looks for, e.g. `msw`. */
  name: string;
  /** How the message names it, when not by `name`, e.g. `redis (node-redis)`. */
  label?: string;
  /** The command that installs it, e.g. `npm install --save-dev msw@^2.9.0`. */
  install: string;
}

/**
 * The error for the optional peer dependency `peer` when it cannot be found from `from` (an
 * `import.meta.url`), else `undefined`. For code that says what to install before loading what needs
 * it: a CLI command prints the message (no stack); an entry point throws it ({@link requireWithPeer}).
 * @returns Error with `code` `'ERR_MODULE_NOT_FOUND'` (Node's own code for it), a message naming the
 * entry, the peer and the command that installs it, and the resolution failure as `cause`.
 */
export function missingPeer(from: string, peer: PeerDependency): (Error & { code: 'ERR_MODULE_NOT_FOUND' }) | undefined {
  try {
    createRequire(from).resolve(peer.name);
    return undefined;
  } catch (cause) {
    return Object.assign(
      new Error(`${peer.entry} needs ${peer.label ?? peer.name}, an optional peer dependency that is not installed. Install it next to a2a-resilient: \`${peer.install}\`.`, { cause }),
      { code: 'ERR_MODULE_NOT_FOUND' as const },
    );
  }
}

/**
 * Loads the ES module `specifier` (relative to `from`, an `import.meta.url`) synchronously with
 * `require()` (Node ≥ 20.19), after checking that the optional peer dependency `peer` it needs can be
 * found. An entry point that needs a peer uses this instead of a static `import`: a package missing
 * anywhere in the module graph fails the whole graph while it is linked, before any code could say
 * what to install. Synchronous, so the entry works the same reached by `import` or by `require`.
 * @throws Error from {@link missingPeer} when the peer is not installed.
 */
export function requireWithPeer<T>(from: string, specifier: string, peer: PeerDependency): T {
  const missing = missingPeer(from, peer);
  if (missing) throw missing;
  return createRequire(from)(specifier) as T;
}
