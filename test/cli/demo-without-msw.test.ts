/**
 * `a2a-resilient demo` in a project without msw: the built CLI (dist/, `npm run build` first) copied
 * into a temporary package whose node_modules holds its dependencies and no msw, run as a process.
 * test/package does the same from the packed tarball, installed by npm.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
let work: string;

beforeAll(() => {
  if (!statSync(join(root, 'dist/src/cli/main.js'), { throwIfNoEntry: false })) throw new Error('dist/ is missing: run `npm run build` before this test');
  work = mkdtempSync(join(tmpdir(), 'a2a-cli-no-msw-'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const dir = join(work, 'node_modules/a2a-resilient');
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  // Its own dependencies (none of them has dependencies of its own), and no msw anywhere above it.
  for (const name of Object.keys(pkg.dependencies)) symlinkSync(join(root, 'node_modules', name), join(work, 'node_modules', name), 'dir');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

it('demo without msw prints the install hint of a2a-resilient/mocks on one line, no stack, and exits 1', async () => {
  const main = join(work, 'node_modules/a2a-resilient/dist/src/cli/main.js');
  const failed = await run(process.execPath, [main, 'demo'], { cwd: work, timeout: 30_000 }).then(
    () => undefined,
    (error: { code?: number; stdout?: string; stderr?: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stdout).toBe('');
  expect(failed?.stderr).toBe('a2a-resilient demo needs msw, an optional peer dependency that is not installed. Install it next to a2a-resilient: `npm install --save-dev msw@^2.9.0`.\n');
});
