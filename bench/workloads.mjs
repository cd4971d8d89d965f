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

/** One cell from the cells of several processes: the median of each figure (the first error, if any). */
function combineCells(cells) {
  if (cells.length === 1) return cells[0];
  const failed = cells.find((c) => c.error);
  if (failed) return failed;
  const mid = (pick) => (cells.every((c) => pick(c) !== undefined) ? median(cells.map(pick)) : undefined);
  return {
    rate: mid((c) => c.rate),
    cpuUs: mid((c) => c.cpuUs),
    peakRssMB: mid((c) => c.peakRssMB),
    readsPerEvent: mid((c) => c.readsPerEvent),
    sysUs: mid((c) => c.sysUs),
    processes: cells.length,
    // Each process's CPU per unit, in round order: targets compare two contenders round by round.
    cpuUsByRound: cells.map((c) => c.cpuUs),
    rates: cells.flatMap((c) => c.rates),
    cpuUsPerUnit: cells.flatMap((c) => c.cpuUsPerUnit),
  };
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
      // A row with `processes: n` measures each contender in n client processes (rounds, the order
      // rotating): per process the cells differ more than between the runs inside one.
      const processes = w.processes ?? 1;
      const reports = Object.fromEntries(keys.map((k) => [k, []]));
      for (let round = 0; round < processes; round++) {
        const turn = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
        for (const key of turn) {
          const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, [CHILD_PATH, key, w.key, server.url, 'measure', String(w.units), String(reps)]);
          const { report } = await runChild(cmd, args, { timeoutMs: 300_000 });
          const c = summarizeCell(report);
          reports[key].push(c);
          log(`  ${w.key} ${key}${processes > 1 ? ` (process ${round + 1}/${processes})` : ''}: ${c.error ? `ERROR ${c.error}` : `${Math.round(c.rate)}/s, ${c.cpuUs.toFixed(2)} µs CPU/unit (${c.sysUs?.toFixed(2) ?? '-'} kernel), ${c.peakRssMB.toFixed(0)} MB${c.readsPerEvent === undefined ? '' : `, ${c.readsPerEvent.toFixed(3)} reads/unit`}`}`);
        }
      }
      for (const key of keys) rows[w.key][key] = combineCells(reports[key]);
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
