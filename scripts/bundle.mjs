// Bundles the ES modules tsc emitted into dist/ (run by `npm run build` after tsc): one file per entry
// point of the `exports` map and `bin`, plus shared chunks in dist/src/chunks/, instead of one module per
// source file. Loading ~190 small modules cost Node 20 more than the code in them (import measured
// ~110 ms unbundled against ~65 ms bundled, bench/cold-start.mjs); one build with code splitting keeps
// every module once, so classes (A2AClientError…) are the same objects whichever entry loaded them
// (the CLI, a program in a process of its own, and the framework entry points are built apart: below).
// Dependencies stay external (installed and updated by npm, as package.json says), and so do the
// lazy `import()`s of the code (CLI commands), which become chunks of their own. The .d.ts files tsc
// emitted stay as they are. Relative `require()`s done at run time (redis/entry.js and mocks/entry.js
// require their `./index.js`) work because those files are entry points here too.
//
// A second output, dist/web/, is the same sources built for browsers and workers (the `browser`,
// `workerd`, `worker` and `edge-light` conditions of the `exports` map point there), so no `node:`
// module, undici, gRPC, Buffer or process is in it; dependencies stay external for the user's
// bundler, which resolves them with its own conditions. The Redis, mocks and CLI entries are Node-only.
//
// What differs between the two builds is chosen here, at build time, by swap points (webSwaps,
// scripts/web-swaps.mjs): a module `name.ts` with a sibling `name.web.ts` is replaced by the sibling in
// the web build wherever it is imported. Each swap point stands where its concern lives, next to the
// one module that uses it, rather than in one service object that every layer imports:
//   - src/platform/current.ts → current.web.ts: the runtime primitives (bytes, UTF-8, base64, the
//     diagnostics channel, warnings, loading optional peers, the package version): node.ts or web.ts;
//   - src/transport/undici-support.ts → undici-support.web.ts: whether there is an undici engine at all
//     (create-engine.ts, the one owner of the engine choice, gives the web build the fetch engine and
//     refuses `dispatcher`, `proxy` and `tls` there);
//   - src/protocol/grpc/grpc-support.ts → grpc-support.web.ts: the gRPC binding, or why there is none;
//   - src/util/load-zod.ts → load-zod.web.ts: zod through `require()`, or bundled.
// Why swap points and not entry points that hand the engine and the binding down: a client is made
// wherever a user (or a test, or a framework adapter) imports `A2AClient`, not only through the
// package's index, and the choice must hold for every copy without a registration that has to run
// first; a swap is also invisible to the Node build, whose bundle and cold start stay as they were.
// The type checker checks the Node modules; each `.web.ts` sibling is typed against its Node module.
import { build } from 'esbuild';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { webSwaps } from './web-swaps.mjs';

if (process.env.A2A_BUNDLE === '0') {
  // Profiling builds (bench/profile-breakdown.mjs buckets CPU by source file): keep tsc's modules.
  process.stdout.write('bundle: skipped (A2A_BUNDLE=0), dist/ keeps one module per source file\n');
  process.exit(0);
}

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const ENTRIES = ['src/index.js', 'src/push/index.js', 'src/redis/entry.js', 'src/redis/index.js', 'mocks/entry.js', 'mocks/index.js'];

// The CLI is a build of its own, a program with its own copy of what it uses (nothing of it holds state that a
// library user shares: it runs in its own process). Built with the library, its lazily loaded commands
// (each a dynamic entry that uses another part of the client) cut the main entry's chunks along what each
// uses: measured, `import('a2a-resilient')` loaded 14 files 6 levels deep instead of 8 files 3 levels deep,
// and resolving the extra imports made Node's own URL code hot enough to be optimised during the import
// (+4 MB RSS). The cost is disk: ~0.5 MB of dist/src/chunks/cli-* that repeat the client.
const CLI_ENTRIES = ['src/cli/main.js'];

// The framework entry points are a second build. In the first, they would use a part of what the main
// entry loads, and code splitting (which groups code by the set of entries that use it) would cut the
// main entry's chunks into more, smaller ones: one more level of imports under `import('a2a-resilient')`,
// measured +10 ms and +4 MB RSS (node bench/cold-start.mjs). Built on their own, they take what holds
// state or identity — the client (and through it the per-agent breakers), the error class — from the
// main entry by the package's own name (MAIN_MODULES, each imported only by names the main entry
// exports), and carry their own copy of the stateless rest (decoders, encoders, schemas).
const FRAMEWORK_ENTRIES = ['src/a2a-js/index.js', 'src/ai-sdk/entry.js', 'src/ai-sdk/index.js', 'src/langchain/entry.js', 'src/langchain/index.js'];
const MAIN_MODULES = ['src/client/a2a-client.js', 'src/errors/a2a-client-error.js', 'src/errors/response-error-from.js', 'src/convert/agent-event.js'];
/** Forbidden in the framework build (they hold state): reaching one means a main module is missing above. */
const STATEFUL = /[\\/]src[\\/](platform|resilience|transport|client)[\\/]/;

function jsFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => f.endsWith('.js') && statSync(f).isFile());
}

const WEB_ENTRIES = { index: 'src/index.js', push: 'src/push/index.js' };
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Resolves MAIN_MODULES to the main entry (external, by the package's name) and refuses stateful modules. */
const fromMainEntry = {
  name: 'from-main-entry',
  setup(b) {
    const main = new Set(MAIN_MODULES.map((m) => join(dist, m)));
    b.onResolve({ filter: /^\./ }, (args) => {
      const path = join(args.resolveDir, args.path);
      if (main.has(path)) return { path: 'a2a-resilient', external: true };
      if (STATEFUL.test(path)) return { errors: [{ text: `${relative(dist, path)} holds state: import it through the main entry (MAIN_MODULES in scripts/bundle.mjs)` }] };
      return undefined;
    });
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
    // Belt and braces: nothing in this build may reach Node's require through globalThis.process.
    define: { A2A_RESILIENT_VERSION: JSON.stringify(version), 'globalThis.process': 'undefined' },
    plugins: [webSwaps],
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  // `packages: 'external'` leaves Node built-ins external too: refuse them (and Node-only packages) here.
  const nodeOnly = Object.values(webBuild.metafile.outputs)
    .flatMap((o) => o.imports.map((i) => i.path))
    .filter((p) => /^(node:|undici$|@grpc\/|@opentelemetry\/|redis$|msw)/.test(p));
  if (nodeOnly.length > 0) throw new Error(`bundle: the web build imports Node-only modules: ${[...new Set(nodeOnly)].join(', ')}`);
  /** The Node build of `entries`: ES modules with code splitting, dependencies external. */
  const nodeBuild = (entries, chunkNames, plugins = []) =>
    build({
      entryPoints: entries.map((e) => join(dist, e)),
      outdir: out,
      outbase: dist,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      packages: 'external',
      chunkNames,
      plugins,
      logLevel: 'warning',
    });
  await nodeBuild(ENTRIES, 'src/chunks/[name]-[hash]');
  await nodeBuild(CLI_ENTRIES, 'src/chunks/cli-[name]-[hash]');
  await nodeBuild(FRAMEWORK_ENTRIES, 'src/chunks/frameworks-[hash]', [fromMainEntry]);
  for (const f of jsFiles(dist)) rmSync(f);
  cpSync(out, dist, { recursive: true });
  cpSync(web, join(dist, 'web'), { recursive: true });
  chmodSync(join(dist, 'web'), 0o755); // mkdtemp made it owner-only
  const files = jsFiles(dist).map((f) => relative(dist, f));
  process.stdout.write(`bundle: ${files.length} files in dist/ (${ENTRIES.length + CLI_ENTRIES.length + FRAMEWORK_ENTRIES.length} entry points; dist/web: ${Object.keys(WEB_ENTRIES).length})\n`);
} finally {
  rmSync(out, { recursive: true, force: true });
  rmSync(web, { recursive: true, force: true });
}
