import { createRequire } from 'node:module';

/**
 * The version of this package, read at run time from its own `package.json` through the package's
 * self-reference (`a2a-resilient/package.json` is in its `exports` map), so it is right wherever the
 * package is installed, and from the sources as from `dist/`.
 * @throws Error when the package.json cannot be read or has no string `version`.
 */
export function packageVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)('a2a-resilient/package.json');
  if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string') return pkg.version;
  throw new Error('a2a-resilient/package.json has no "version"');
}
