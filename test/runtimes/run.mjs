#!/usr/bin/env node
// Runs the runtime smoke test (./smoke.mjs) in other JavaScript runtimes against loopback mock agents
// started here, in Node: `npm run test:runtimes [-- bun deno workerd chromium node]` (all but node
// by default). Binaries come from scripts/runtime-bin.sh (npm registry packages, cached under
// ~/.cache/a2a-resilient); Chromium is the system's /usr/bin/chromium (Debian's `chromium`), driven by
// playwright-core. Needs a built dist/ (`npm run build`). Each runtime's first line names it and its
// version; the last line is `runtimes: N passed, N failed`. Exits 1 when any check failed.
//   A2A_SMOKE_ENGINE=fetch  runs the script runtimes with `{ fetch: globalThis.fetch }` (to compare engines)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentSideFailures, engineSeen, startAgents } from './agents.mjs';
import { createConsumer, root } from './consumer.mjs';
import { DENO_VARIANTS, scriptRuntime } from './script-runtime.mjs';

// Each runtime runs the smoke once per variant (Deno: with and without --allow-env, see script-runtime.mjs).
const RUNTIMES = {
  node: () => [() => scriptRuntime('node')],
  bun: () => [() => scriptRuntime('bun')],
  deno: () => Object.keys(DENO_VARIANTS).map((variant) => () => scriptRuntime('deno', variant)),
  workerd: () => [async () => (await import('./workerd.mjs')).workerdRuntime()],
  chromium: () => [async () => (await import('./chromium.mjs')).chromiumRuntime()],
};
const DEFAULT = ['bun', 'deno', 'workerd', 'chromium'];

const asked = process.argv.slice(2);
for (const name of asked) if (!(name in RUNTIMES)) fail(`unknown runtime '${name}' (${Object.keys(RUNTIMES).join(', ')})`);
if (!existsSync(join(root, 'dist/src/index.js'))) fail('dist/ is not built: run `npm run build` first');
const engine = process.env.A2A_SMOKE_ENGINE === 'fetch' ? 'fetch' : 'default';

const consumer = createConsumer();
let passed = 0;
let failed = 0;
try {
  for (const [name, setUp] of (asked.length > 0 ? asked : DEFAULT).flatMap((n) => RUNTIMES[n]().map((v) => [n, v]))) {
    const t0 = performance.now();
    let runtime;
    try {
      runtime = await setUp();
    } catch (error) {
      console.log(`runtime: ${name} (could not be set up)`);
      report([{ name: 'setup', ok: false, ms: 0, detail: String(error?.message ?? error) }]);
      continue;
    }
    // The first line of each leg: which runtime, which version.
    console.log(`runtime: ${runtime.version}${engine === 'fetch' ? ' (engine: fetch, forced)' : ''}`);
    const { urls, agents, close } = await startAgents();
    let results;
    try {
      const got = await runtime.run({ dir: consumer.dir, urls, engine });
      results = got.results;
      const seen = engineSeen(agents);
      if (got.runtime) console.log(`  (the runtime says: ${got.runtime}; engine: ${runtime.engine === undefined ? 'fetch, the only one in the web build' : seen})`);
      if (engine === 'default' && runtime.engine !== undefined) results.push({ name: 'default engine', ok: seen.startsWith(`${runtime.engine} `), ms: 0, detail: `expected ${runtime.engine}, the agent saw ${seen}` });
      if (got.stderr) console.log(`  (its stderr: ${got.stderr.split('\n').filter((l) => !/^\s*stack:/.test(l)).slice(0, 8).map((l) => l.slice(0, 240)).join('\n    ')})`);
      // A cleanup that failed (it never replaces the failure reported, but it is a bug on this runtime).
      // (A process warning with code A2A_RESILIENT_CLEANUP; the same text on the console where there is no process.)
      if (/A2A_RESILIENT_CLEANUP|cleaning up after a failure failed too/.test(got.stderr ?? '')) results.push({ name: 'no cleanup failures', ok: false, ms: 0, detail: 'a cleanup failed (see the warning above)' });
      results.push(...agentSideFailures(agents, results.filter((r) => r.ok).map((r) => r.name)));
    } catch (error) {
      results = [{ name: 'run', ok: false, ms: 0, detail: String(error?.message ?? error) }];
    } finally {
      await close();
      await runtime.dispose?.();
    }
    report(results);
    console.log(`${name}: ${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length} failed (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
} finally {
  consumer.dispose();
}
console.log(`runtimes: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;

function report(results) {
  for (const r of results) {
    if (r.ok) passed += 1;
    else failed += 1;
    console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.ms} ms): ${r.detail}`);
  }
}

function fail(message) {
  console.error(`test:runtimes: ${message}`);
  process.exit(2);
}
