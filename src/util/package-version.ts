import { platform } from '../platform/current.js';

/**
 * The version of this package, read at run time from its own `package.json` through the package's
 * self-reference (`a2a-resilient/package.json` is in its `exports` map), so it is right wherever the
 * package is installed, and from the sources as from `dist/` (the web build has it built in).
 * @throws Error when the package.json cannot be read or has no string `version`.
 */
export function packageVersion(): string {
  return platform.packageVersion();
}
