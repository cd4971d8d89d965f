// Lints the package as it would be published: packs the built dist/ (run `npm run build` first) and runs
// publint --strict and Are The Types Wrong (node16 profile: node16 CJS and ESM resolution) on the tarball.
// Exits non-zero on any problem.
//
// attw rule `cjs-resolves-to-esm` is ignored on purpose: CommonJS callers get the ES modules themselves
// through Node's require(esm) (Node >= 20.19, the package's engines floor; no top-level await anywhere),
// not a second CommonJS build. attw runs its own TypeScript (5.6), which predates TypeScript 5.8's
// support for require(esm) under `module: nodenext`, so it reports every CJS resolution to ESM types
// as a problem. test/package/pack.test.ts checks what that rule stands for: a `.cts` file with
// `import x = require('a2a-resilient')` type-checks under nodenext, and `require()` works at run time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
if (!existsSync(join(root, 'dist/src/index.js'))) {
  console.error('lint-package: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'a2a-lint-'));
try {
  const [{ filename }] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const tarball = join(dir, filename);
  execFileSync(bin('publint'), ['run', tarball, '--strict'], { stdio: 'inherit' });
  execFileSync(bin('attw'), [tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--no-emoji', '--no-color'], { stdio: 'inherit' });
} catch (error) {
  console.error(`lint-package: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
