import { createRequire } from 'node:module';

/**
 * Loads the ES module `specifier` (relative to `from`, an `import.meta.url`) synchronously with
 * `require()` (Node ≥ 20.19), after checking that the optional peer dependency `peer` it needs can be
 * found. An entry point that needs a peer uses this instead of a static `import`: a package missing
 * anywhere in the module graph fails the whole graph while it is linked, before any code could say
 * what to install. Synchronous, so the entry works the same reached by `import` or by `require`.
 * @throws Error with `code` `'ERR_MODULE_NOT_FOUND'` (Node's own code for it), a message naming the
 * entry, the peer and the command that installs it, and the resolution failure as `cause`.
 */
export function requireWithPeer<T>(from: string, specifier: string, peer: { entry: string; name: string; label?: string; install: string }): T {
  const require = createRequire(from);
  try {
    require.resolve(peer.name);
  } catch (cause) {
    throw Object.assign(
      new Error(`${peer.entry} needs ${peer.label ?? peer.name}, an optional peer dependency that is not installed. Install it next to a2a-resilient: \`${peer.install}\`.`, { cause }),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
  }
  return require(specifier) as T;
}
