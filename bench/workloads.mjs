/**
 * The realistic-workloads section (issue 15): every workload × contender in its own client process
 * pinned to the client core, against the bench server pinned to the other core; median of 5 runs
 * after a warm-up. Per cell: rate (events/s or calls/s), client CPU µs per event/call
 * (process.cpuUsage), peak RSS of the client process. Used by `npm run bench` (section `workloads`)
 * and on its own:
 *   node bench/workloads.mjs [workload...] [contender...]     e.g. `node bench/workloads.mjs per-frame ssm,raw`
 * Env: BENCH_WORKLOAD_REPS (5), BENCH_PIN=0 (no taskset).
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { CHILD_PATH, runChild } from './child-run.mjs';
import { CLIENT_CPU, SERVER_CPU, pinProcess, pinnedCommand, pinningNote } from './pinning.mjs';
import { interleave, openSliced } from './slices.mjs';
import { startAgents } from './server-control.mjs';
import { median } from './stats.mjs';
import { READ_PATHS, WORKLOADS, contendersOf, parseSelection } from './workload-defs.mjs';
import { renderWorkloads } from './workloads-report.mjs';

/** Starts the bench server (one 'ok' agent) pinned to the server core; resolves `{ url, stop, pinned }`. */
export async function startPinnedServer() {
  const agents = await startAgents(['ok']);
  const pinned = pinProcess(agents.pid, SERVER_CPU);
  return { url: agents.urls[0], stop: agents.stop, pinned };
}

/** Median summary of one child's report: rate, CPU µs per unit, peak RSS, reads per event. */
function summarizeCell(report) {
  if (!report.ok) return { error: report.error };
  return {
    rate: median(report.rates),
    cpuUs: median(report.cpuUsPerUnit),
    peakRssMB: report.peakRssMB,
    readsPerEvent: report.readsPerEvent ? median(report.readsPerEvent) : undefined,
    sysUs: report.sysUsPerUnit ? median(report.sysUsPerUnit) : undefined,
    rates: report.rates,
    cpuUsPerUnit: report.cpuUsPerUnit,
  };
}

/** The peak RSS a sliced child reported when it stopped (its last line). */
function peakRssOf(line) {
  try {
    return JSON.parse(line).peakRssMB;
  } catch {
    return undefined;
  }
}

/**
 * A row compared contender against contender (`turns` set): every contender in a client process of
 * its own, side by side, taking `turns` interleaved turns of one run each (`slices.mjs`), so a slow
 * spell of this machine falls on both sides of a turn. Cells as `summarizeCell`'s, with `cpuUsByRound`
 * (every turn's CPU per unit, in turn order: the targets compare two contenders turn by turn).
 */
async function interleavedRow(w, keys, url, log) {
  const opened = {};
  const peaks = {};
  let cells;
  try {
    for (const key of keys) opened[key] = await openSliced(...pinnedCommand(CLIENT_CPU, process.execPath, [CHILD_PATH, key, w.key, url, 'slices', String(w.units)]));
    cells = await interleave(opened, w.turns, w.units);
  } finally {
    // Every process stops (and says its peak RSS) whether or not the turns went through.
    for (const [key, c] of Object.entries(opened)) peaks[key] = peakRssOf(await c.stop());
  }
  return Object.fromEntries(
    keys.map((key) => {
      const c = cells[key];
      const cell = { rate: c.rate, cpuUs: c.cpuUs, sysUs: c.sysUs, peakRssMB: peaks[key], readsPerEvent: c.readsPerUnit, turns: w.turns, cpuUsByRound: c.cpuUsByTurn };
      log(`  ${w.key} ${key} (${w.turns} turns): ${Math.round(c.rate)}/s, ${c.cpuUs.toFixed(2)} µs CPU/unit (${c.sysUs.toFixed(2)} kernel), ${cell.peakRssMB?.toFixed(0) ?? '-'} MB${c.readsPerUnit === undefined ? '' : `, ${c.readsPerUnit.toFixed(3)} reads/unit`}`);
      return [key, cell];
    }),
  );
}

/**
 * Measures the selected workloads × contenders (all when the lists are empty). Resolves
 * `{ meta, rows: { [workload]: { [contender]: cell } } }`.
 */
export async function workloadsSection({ workloads = [], contenders = [], reps = 5, log = () => {} } = {}) {
  const server = await startPinnedServer();
  const rows = {};
  const started = performance.now();
  try {
    const list = WORKLOADS.filter((w) => workloads.length === 0 || workloads.includes(w.key));
    for (const [i, w] of list.entries()) {
      rows[w.key] = {};
      // The read paths of read-paths.mjs run only when named (`node bench/workloads.mjs per-frame raw,rawDispatch`).
      const named = w.kind === 'stream' ? READ_PATHS.filter((c) => contenders.includes(c)) : [];
      const keys = [...contendersOf(w, { lean: true }), ...named].filter((c) => contenders.length === 0 || contenders.includes(c));
      const order = [...keys.slice(i % keys.length), ...keys.slice(0, i % keys.length)];
      if (w.turns !== undefined && keys.length > 1) {
        rows[w.key] = await interleavedRow(w, order, server.url, log).catch((err) => Object.fromEntries(keys.map((k) => [k, { error: err instanceof Error ? err.message : String(err) }])));
        continue;
      }
      for (const key of order) {
        const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, [CHILD_PATH, key, w.key, server.url, 'measure', String(w.units), String(reps)]);
        const { report } = await runChild(cmd, args, { timeoutMs: 300_000 });
        const c = summarizeCell(report);
        rows[w.key][key] = c;
        log(`  ${w.key} ${key}: ${c.error ? `ERROR ${c.error}` : `${Math.round(c.rate)}/s, ${c.cpuUs.toFixed(2)} µs CPU/unit (${c.sysUs?.toFixed(2) ?? '-'} kernel), ${c.peakRssMB.toFixed(0)} MB${c.readsPerEvent === undefined ? '' : `, ${c.readsPerEvent.toFixed(3)} reads/unit`}`}`);
      }
    }
  } finally {
    await server.stop();
  }
  const pinning = server.pinned ? pinningNote() : 'UNPINNED (taskset unavailable or failed)';
  return { meta: { pinning, reps, elapsedS: (performance.now() - started) / 1000 }, rows };
}

async function main() {
  const { workloads, contenders } = parseSelection(process.argv.slice(2));
  const reps = Number(process.env.BENCH_WORKLOAD_REPS ?? 5);
  const log = (m) => process.stderr.write(`${m}\n`);
  const section = await workloadsSection({ workloads, contenders, reps, log });
  const out = fileURLToPath(new URL('./workloads.json', import.meta.url));
  await writeFile(out, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...section }, null, 2)}\n`);
  process.stdout.write(`${renderWorkloads(section)}\n\nWrote ${out} (${section.meta.elapsedS.toFixed(1)} s)\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`workloads failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
