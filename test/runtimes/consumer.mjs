// A throwaway "user project" for the runtime smoke test: a folder with a package.json, the built
// package linked at node_modules/a2a-resilient (resolved through its exports map, as after
// `npm install`), and the runtime-neutral smoke files beside it.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The repository root (the package). */
export const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['smoke.mjs', 'cli-entry.mjs', 'worker-entry.mjs', 'page-entry.mjs', 'engine-bench-entry.mjs'];

/**
 * Creates the consumer folder; `dispose()` removes it. The package linked is this repository, or the
 * folder A2A_SMOKE_PACKAGE names (another checkout or an unpacked tarball with its node_modules).
 */
export function createConsumer() {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-runtime-smoke-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'smoke-consumer', private: true, type: 'module', dependencies: { 'a2a-resilient': '*' } }, null, 2));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(process.env.A2A_SMOKE_PACKAGE ?? root, join(dir, 'node_modules', 'a2a-resilient'), 'dir');
  for (const f of FILES) if (existsSync(join(here, f))) cpSync(join(here, f), join(dir, f));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
