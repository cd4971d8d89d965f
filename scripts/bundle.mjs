// Bundles the ES modules tsc emitted into dist/ (run by `npm run build` after tsc): one file per entry
// point of the `exports` map and `bin`, plus shared chunks in dist/src/chunks/, instead of one module per
// source file. Loading ~190 small modules cost Node 20 more than the code in them (import measured
// ~110 ms unbundled against ~65 ms bundled, bench/cold-start.mjs); one build with code splitting keeps
// every module once, so classes (A2AClientError…) are the same objects whichever entry loaded them.
// Dependencies stay external (installed and updated by npm, as package.json says), and so do the
// lazy `import()`s of the code (CLI commands), which become chunks of their own. The .d.ts files tsc
// emitted stay as they are. Relative `require()`s done at run time (redis/entry.js and mocks/entry.js
// require their `./index.js`) work because those files are entry points here too.
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, rmSync, cpSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

if (process.env.A2A_BUNDLE === '0') {
  // Profiling builds (bench/profile-breakdown.mjs buckets CPU by source file): keep tsc's modules.
  process.stdout.write('bundle: skipped (A2A_BUNDLE=0), dist/ keeps one module per source file\n');
  process.exit(0);
}

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const ENTRIES = ['src/index.js', 'src/cli/main.js', 'src/push/index.js', 'src/redis/entry.js', 'src/redis/index.js', 'mocks/entry.js', 'mocks/index.js'];

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => f.endsWith('.js') && statSync(f).isFile());
}

const out = mkdtempSync(join(tmpdir(), 'a2a-bundle-'));
try {
  await build({
    entryPoints: ENTRIES.map((e) => join(dist, e)),
    outdir: out,
    outbase: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    chunkNames: 'src/chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  for (const f of jsFiles(dist)) rmSync(f);
  cpSync(out, dist, { recursive: true });
  const files = jsFiles(dist).map((f) => relative(dist, f));
  process.stdout.write(`bundle: ${files.length} files in dist/ (${ENTRIES.length} entry points)\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
