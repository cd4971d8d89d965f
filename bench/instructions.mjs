/**
 * Instruction-count mode (issue 15's key measure): `npm run bench:instructions`, or
 *   node bench/instructions.mjs [workload...] [contender...]      e.g. `node bench/instructions.mjs per-frame ssm,raw`
 * For each workload × contender it runs the CLIENT process twice under `valgrind --tool=callgrind`
 * (a small and a large run, see `ic` in workload-defs.mjs; answers replayed in-process, or the
 * bench server on the other core with BENCH_IC_TRANSPORT=socket), and reports instructions per
 * event (unary: per call) = (large − small) / (extra events): start-up and JIT warm-up cancel.
 * Far steadier than CPU time, but not blind to load: ours reads the clock and V8 sizes its heap
 * partly by time, so run it on an otherwise idle machine (see bench/README.md).
 * Writes bench/instructions.json, MERGED with the cells already there (so one cell can be
 * re-measured; ratios against cells from an earlier run are marked †).
 * Env: BENCH_IC_WORKLOADS / BENCH_IC_CONTENDERS (comma lists, like the arguments), BENCH_IC_OUT (the file to merge into),
 * BENCH_IC_SCALE (multiplies the small and large counts), BENCH_IC_GAP_US (per-frame pacing, µs),
 * BENCH_VALGRIND_ARGS, BENCH_PIN=0.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { callgrindRun } from './callgrind.mjs';
import { pinningNote } from './pinning.mjs';
import { renderInstructions } from './instructions-report.mjs';
import { WORKLOADS, contendersOf, parseSelection } from './workload-defs.mjs';
import { startPinnedServer } from './workloads.mjs';

/**
 * Where the measured client's answers come from: 'replay' (default) — in the client process, exact
 * read boundaries (one frame per read for per-frame, ~32 KB per read batched), so counts repeat;
 * 'socket' — the loopback bench server, whose read boundaries depend on timing (±15 % between runs).
 */
const TRANSPORT = process.env.BENCH_IC_TRANSPORT ?? 'replay';

/** Where the cells are merged: bench/instructions.json, or BENCH_IC_OUT (two runs side by side, merged later). */
const outPath = process.env.BENCH_IC_OUT ?? fileURLToPath(new URL('./instructions.json', import.meta.url));
const log = (m) => process.stderr.write(`${m}\n`);

/** Measures one cell: small and large runs; resolves the per-unit count and the raw totals. */
async function measureCell(key, w, url) {
  const scale = Number(process.env.BENCH_IC_SCALE ?? 1);
  const transport = TRANSPORT;
  const socket = transport === 'socket';
  const [small, large] = ((socket && w.icSocket) || w.ic).map((n) => Math.max(1, Math.round(n * scale)));
  const gapUs = socket && w.icGapUs ? Number(process.env.BENCH_IC_GAP_US ?? w.icGapUs) : 0;
  const warmUnits = w.icWarm ?? 0;
  const a = await callgrindRun(key, w, url, small, { gapUs, warmUnits, transport });
  const b = await callgrindRun(key, w, url, large, { gapUs, warmUnits, transport });
  const perUnit = (b.instructions - a.instructions) / (b.units - a.units);
  return {
    perUnit,
    small: { units: a.units, instructions: a.instructions, wallS: a.wallS, readsPerUnit: a.readsPerUnit },
    large: { units: b.units, instructions: b.instructions, wallS: b.wallS, readsPerUnit: b.readsPerUnit },
    gapUs,
    transport,
    date: new Date().toISOString(),
  };
}

async function main() {
  const env = [process.env.BENCH_IC_WORKLOADS, process.env.BENCH_IC_CONTENDERS].filter(Boolean);
  const { workloads, contenders } = parseSelection([...process.argv.slice(2), ...env]);
  if (!existsSync(fileURLToPath(new URL('../dist/src/index.js', import.meta.url)))) {
    throw new Error('dist/src/index.js not found: run `npm run build` first');
  }
  const previous = existsSync(outPath) ? JSON.parse(await readFile(outPath, 'utf8')) : { cells: {} };
  const cells = previous.cells ?? {};
  const fresh = new Set();
  const started = performance.now();
  const server = await startPinnedServer();
  try {
    for (const w of WORKLOADS.filter((x) => !x.wallOnly && (workloads.length === 0 || workloads.includes(x.key)))) {
      for (const key of contendersOf(w, { iteratorFloor: true }).filter((c) => contenders.length === 0 || contenders.includes(c))) {
        const t0 = performance.now();
        try {
          const cell = await measureCell(key, w, server.url);
          cells[w.key] = { ...cells[w.key], [key]: cell };
          const reads = w.kind === 'stream' ? `, ${cell.large.readsPerUnit.toFixed(2)} reads/event` : '';
          log(`  ${w.key} ${key}: ${Math.round(cell.perUnit)} instructions/${w.kind === 'unary' ? 'call' : 'event'} (${((performance.now() - t0) / 1000).toFixed(0)} s${reads})`);
        } catch (err) {
          cells[w.key] = { ...cells[w.key], [key]: { error: err instanceof Error ? err.message : String(err), date: new Date().toISOString() } };
          log(`  ${w.key} ${key}: ERROR ${cells[w.key][key].error}`);
        }
        fresh.add(`${w.key}/${key}`);
      }
    }
  } finally {
    await server.stop();
  }
  const elapsedS = (performance.now() - started) / 1000;
  const meta = { date: new Date().toISOString(), node: process.version, pinning: server.pinned ? pinningNote() : 'UNPINNED', elapsedS };
  await writeFile(outPath, `${JSON.stringify({ meta, cells }, null, 2)}\n`);
  process.stdout.write(`${renderInstructions(cells, fresh)}\n\n${meta.pinning}. This run: ${fresh.size} cells in ${elapsedS.toFixed(0)} s. Wrote ${outPath}\n`);
}

main().catch((err) => {
  log(`instructions failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
});
