// Bundles the ES modules tsc emitted into dist/ (run by `npm run build` after tsc): one file per entry
// point of the `exports` map and `bin`, plus shared chunks in dist/src/chunks/, instead of one module per
// source file. Loading ~190 small modules cost Node 20 more than the code in them (import measured
// ~110 ms unbundled against ~65 ms bundled, bench/cold-start.mjs); one build with code splitting keeps
// every module once, so classes (A2AClientError…) are the same objects whichever entry loaded them.
// Dependencies stay external (installed and updated by npm, as package.json says), and so do the
// lazy `import()`s of the code (CLI commands), which become chunks of their own. The .d.ts files tsc
// emitted stay as they are. Relative `require()`s done at run time (redis/entry.js and mocks/entry.js
// require their `./index.js`) work because those files are entry points here too.
//
// A second output, dist/web/, is the same sources built for browsers and workers (the `browser`,
// `workerd`, `worker` and `edge-light` conditions of the `exports` map point there): the one import
// that differs, `platform/current.js` → `./node.js`, resolves to `./web.js` (src/platform/), so no
// `node:` module, undici, Buffer or process is in it; dependencies stay external for the user's
// bundler, which resolves them with its own conditions. The Redis, mocks and CLI entries are Node-only.
import { build } from 'esbuild';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

if (process.env.A2A_BUNDLE === '0') {
  // Profiling builds (bench/profile-breakdown.mjs buckets CPU by source file): keep tsc's modules.
  process.stdout.write('bundle: skipped (A2A_BUNDLE=0), dist/ keeps one module per source file\n');
  process.exit(0);
}

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const ENTRIES = ['src/index.js', 'src/cli/main.js', 'src/push/index.js', 'src/a2a-js/index.js', 'src/ai-sdk/entry.js', 'src/ai-sdk/index.js', 'src/langchain/entry.js', 'src/langchain/index.js', 'src/redis/entry.js', 'src/redis/index.js', 'mocks/entry.js', 'mocks/index.js'];

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => f.endsWith('.js') && statSync(f).isFile());
}

const WEB_ENTRIES = { index: 'src/index.js', push: 'src/push/index.js' };
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Resolves the platform module of the web build: `./node.js` imported by platform/current.js → `./web.js`. */
const webPlatform = {
  name: 'web-platform',
  setup(b) {
    b.onResolve({ filter: /^\.\/node\.js$/ }, (args) => (args.importer.endsWith(join('platform', 'current.js')) ? { path: join(args.resolveDir, 'web.js') } : undefined));
  },
};

const out = mkdtempSync(join(tmpdir(), 'a2a-bundle-'));
const web = mkdtempSync(join(tmpdir(), 'a2a-bundle-web-'));
try {
  // From tsc's modules, before the Node bundle replaces them.
  const webBuild = await build({
    entryPoints: Object.entries(WEB_ENTRIES).map(([out, e]) => ({ in: join(dist, e), out })),
    outdir: web,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    packages: 'external',
    // lazy-zod.js looks for Node's require through globalThis.process; the web platform provides zod.
    define: { A2A_RESILIENT_VERSION: JSON.stringify(version), 'globalThis.process': 'undefined' },
    plugins: [webPlatform],
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  // `packages: 'external'` leaves Node built-ins external too: refuse them (and Node-only packages) here.
  const nodeOnly = Object.values(webBuild.metafile.outputs)
    .flatMap((o) => o.imports.map((i) => i.path))
    .filter((p) => /^(node:|undici$|@grpc\/|@opentelemetry\/|redis$|msw)/.test(p));
  if (nodeOnly.length > 0) throw new Error(`bundle: the web build imports Node-only modules: ${[...new Set(nodeOnly)].join(', ')}`);
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
  cpSync(web, join(dist, 'web'), { recursive: true });
  chmodSync(join(dist, 'web'), 0o755); // mkdtemp made it owner-only
  const files = jsFiles(dist).map((f) => relative(dist, f));
  process.stdout.write(`bundle: ${files.length} files in dist/ (${ENTRIES.length} entry points; dist/web: ${Object.keys(WEB_ENTRIES).length})\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
  rmSync(web, { recursive: true, force: true });
}
