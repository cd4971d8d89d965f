import { createRequire } from 'node:module';

/**
 * This package's version from its own `package.json` (through the package's self-reference, so it is
 * right wherever the package is installed, from the sources as from `dist/`). Imports nothing else,
 * so `a2a-resilient --version` loads no more than this.
 * @throws Error when the package.json cannot be read or has no string `version`.
 */
export function nodePackageVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)('a2a-resilient/package.json');
  if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string') return pkg.version;
  throw new Error('a2a-resilient/package.json has no "version"');
}

/** The arguments that ask the CLI for its version (alone). */
export const VERSION_FLAGS: readonly string[] = ['--version', '-v'];
