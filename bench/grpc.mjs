/**
 * The gRPC bench (issue 24): `npm run bench:grpc` (= `node bench/grpc.mjs [workload...]`), after
 * `npm run build`, and section `grpc` of `npm run bench` (`grpcSection`). A minimal grpc-js A2A agent
 * (`grpc-server.mjs`, answers pre-encoded) runs in a child pinned to the server core; every measured
 * client runs in its own process pinned to the client core (`grpc-child.mjs`): the official
 * `@a2a-js/sdk` gRPC client (`@a2a-js/sdk/client/grpc`), grpc-js alone with our codecs (the floor: no
 * deadline, no pipeline, no validation) and ours, connected from the same card. The contenders of a
 * row run side by side and take interleaved turns (`slices.mjs`: `reps` × 4 turns; alone
 * `BENCH_GRPC_ROUNDS`, default 5; in `npm run bench` BENCH_REPS), each turn a third of the row's units
 * after a warm-up: the medians of client CPU µs per call / event and of the rate, and the median of
 * the per-turn ratios to the official client. With `--ic` (or BENCH_GRPC_IC=1, alone only) it also
 * counts instructions per call / event under callgrind ((large − small) / extra units, as
 * `instructions.mjs`). Alone, writes bench/grpc.json.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { callgrindRun } from './callgrind.mjs';
import { GRPC_CONTENDERS, GRPC_CONTENDER_NAMES, GRPC_WORKLOADS } from './grpc-defs.mjs';
import { CLIENT_CPU, SERVER_CPU, canPin, pinProcess, pinnedCommand, pinningNote } from './pinning.mjs';
import { openSliced, interleave } from './slices.mjs';
import { fmt } from './stats.mjs';
import { renderRows } from './workloads-report.mjs';

const CHILD = fileURLToPath(new URL('./grpc-child.mjs', import.meta.url));
const SERVER = fileURLToPath(new URL('./grpc-server.mjs', import.meta.url));

function startServer() {
  const child = fork(SERVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (canPin()) pinProcess(child.pid, SERVER_CPU);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`gRPC bench server exited (code ${code})`)));
    child.once('message', (m) => resolve({ url: `http://127.0.0.1:${m.ports[0]}`, stop: () => child.disconnect() }));
  });
}

async function instructions(key, w, url) {
  const run = (units) => callgrindRun(key, w, url, units, { warmUnits: w.icWarm ?? 0, transport: 'socket', child: CHILD });
  const a = await run(w.ic[0]);
  const b = await run(w.ic[1]);
  return (b.instructions - a.instructions) / (b.units - a.units);
}

/** Turns per round: `rounds` rounds are `rounds * SLICES_PER_ROUND` slices of each contender. */
const SLICES_PER_ROUND = 4;

/**
 * One workload: a client process per contender, side by side, taking `rounds * SLICES_PER_ROUND`
 * interleaved turns of a third of the row's units each (`slices.mjs`); ratios to the official client
 * within each turn, their median.
 */
async function measureRow(w, url, rounds, ic, log) {
  const keys = GRPC_CONTENDERS[w.kind];
  const opened = {};
  try {
    for (const key of keys) opened[key] = await openSliced(...pinnedCommand(CLIENT_CPU, process.execPath, [CHILD, key, w.key, url, 'slices', String(w.units)]));
    log(`  ${w.key}: ${rounds * SLICES_PER_ROUND} turns`);
    const measured = await interleave(opened, rounds * SLICES_PER_ROUND, Math.ceil(w.units / 3), (m) => log(`  ${w.key}${m}`));
    const cells = {};
    for (const [key, c] of Object.entries(measured)) {
      cells[key] = { cpuUs: c.cpuUs, rate: c.rate, ...(c.vsRef === undefined ? {} : { cpuVsOfficial: c.vsRef, rateVsOfficial: c.rateVsRef, cpuVsOfficialRounds: c.vsRefSlices }) };
      if (ic) {
        cells[key].instructions = await instructions(key, w, url);
        log(`  ${w.key} ${key}: ${Math.round(cells[key].instructions)} instructions/${w.kind === 'unary' ? 'call' : 'event'}`);
      }
    }
    if (ic) for (const key of keys) if (key !== 'official') cells[key].instructionsVsOfficial = cells[key].instructions / cells.official.instructions;
    return { label: w.label, kind: w.kind, cells };
  } finally {
    await Promise.all(Object.values(opened).map((c) => c.stop()));
  }
}

/**
 * Measures the selected gRPC workloads (all when `workloads` is empty), `reps` rounds each. Resolves
 * `{ meta, results: { [workload]: { label, kind, cells } | { label, kind, error } } }`.
 */
export async function grpcSection({ workloads = [], reps = 5, ic = false, log = () => {} } = {}) {
  if (!existsSync(fileURLToPath(new URL('../dist/src/index.js', import.meta.url)))) throw new Error('dist/src/index.js not found: run `npm run build` first');
  const started = performance.now();
  const server = await startServer();
  const results = {};
  try {
    for (const w of GRPC_WORKLOADS.filter((x) => workloads.length === 0 || workloads.includes(x.key))) {
      results[w.key] = await measureRow(w, server.url, reps, ic, log).catch((err) => {
        log(`  ${w.key}: ERROR ${err instanceof Error ? err.message : String(err)}`);
        return { label: w.label, kind: w.kind, error: err instanceof Error ? err.message : String(err) };
      });
    }
  } finally {
    server.stop();
  }
  const meta = { date: new Date().toISOString(), node: process.version, rounds: reps, pinning: canPin() ? pinningNote() : 'UNPINNED', elapsedS: (performance.now() - started) / 1000 };
  return { meta, results };
}

/** The section as a markdown table (what `node bench/grpc.mjs` prints). */
function markdown({ meta, results }, ic) {
  const lines = ['| workload | contender | client CPU µs/op | vs official | ops/s | vs official |' + (ic ? ' instructions/op | vs official |' : ''), '| --- | --- | ---: | ---: | ---: | ---: |' + (ic ? ' ---: | ---: |' : '')];
  for (const { label, cells, error } of Object.values(results)) {
    if (error) lines.push(`| ${label} | ERROR: ${error} | | | | |`);
    for (const [key, c] of Object.entries(cells ?? {})) {
      const x = (v) => (v === undefined ? '' : `${v.toFixed(2)}x`);
      lines.push(`| ${label} | ${GRPC_CONTENDER_NAMES[key]} | ${c.cpuUs.toFixed(1)} | ${x(c.cpuVsOfficial)} | ${Math.round(c.rate)} | ${x(c.rateVsOfficial)} |` + (ic ? ` ${Math.round(c.instructions)} | ${x(c.instructionsVsOfficial)} |` : ''));
    }
  }
  return `${lines.join('\n')}\n\n${meta.pinning}; ${meta.rounds * 4} interleaved turns per row, medians; ratios within each turn.`;
}

/** The section as an aligned text table, for `npm run bench`'s printed report. */
export function renderGrpc({ meta, results }) {
  const rows = [['gRPC (client CPU per call / event)', 'contender', 'CPU µs/op', 'vs official (rounds min-max)', 'ops/s', 'vs official']];
  const errors = [];
  for (const { label, cells, error } of Object.values(results)) {
    if (error) {
      rows.push([label, 'ERROR (below)', '-', '-', '-', '-']);
      errors.push(`  (!) ${label}: ${error}`);
    }
    for (const [key, c] of Object.entries(cells ?? {})) {
      const rounds = c.cpuVsOfficialRounds ?? [];
      const range = rounds.length ? ` (${fmt(Math.min(...rounds), 2)}-${fmt(Math.max(...rounds), 2)})` : '';
      rows.push([label, GRPC_CONTENDER_NAMES[key], fmt(c.cpuUs, 1), c.cpuVsOfficial === undefined ? '' : `${fmt(c.cpuVsOfficial, 2)}x${range}`, fmt(c.rate), c.rateVsOfficial === undefined ? '' : `${fmt(c.rateVsOfficial, 2)}x`]);
    }
  }
  return `${[renderRows(rows), ...errors].join('\n')}\n  a client process per contender, side by side, ${meta.rounds * 4} interleaved turns each (after a warm-up); ratios within each turn, their median (and range); ${meta.pinning}`;
}

async function main() {
  const log = (m) => process.stderr.write(`${m}\n`);
  const words = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const ic = process.argv.includes('--ic') || process.env.BENCH_GRPC_IC === '1';
  const reps = Number(process.env.BENCH_GRPC_ROUNDS ?? 5);
  const { meta, results } = await grpcSection({ workloads: words, reps, ic, log });
  const { elapsedS, ...recorded } = meta;
  await writeFile(fileURLToPath(new URL('./grpc.json', import.meta.url)), `${JSON.stringify({ meta: recorded, results }, null, 2)}\n`);
  process.stdout.write(`${markdown({ meta, results }, ic)}\n(${elapsedS.toFixed(1)} s)\n`);
  if (Object.values(results).some((r) => r.error)) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`grpc bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
