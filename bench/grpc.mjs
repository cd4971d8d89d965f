/**
 * The gRPC bench (issue 24): `npm run bench:grpc` (= `node bench/grpc.mjs [workload...]`), after
 * `npm run build`, and section `grpc` of `npm run bench` (`grpcSection`). A minimal grpc-js A2A agent
 * (`grpc-server.mjs`, answers pre-encoded) runs in a child pinned to the server core; every measured
 * client runs in its own process pinned to the client core (`grpc-child.mjs`): the official
 * `@a2a-js/sdk` gRPC client (`@a2a-js/sdk/client/grpc`) and ours, connected from the same card.
 * Same-run alternating comparison: `reps` rounds (alone: `BENCH_GRPC_ROUNDS`, default 5; in
 * `npm run bench`: BENCH_REPS), each running every contender once (order rotating) — warm-up, then 3
 * runs — and the medians of client CPU µs per call / event and of the rate; the ratio ours / official
 * is taken within each round, and its median reported. With `--ic` (or BENCH_GRPC_IC=1, alone only)
 * it also counts instructions per call / event under callgrind ((large − small) / extra units, as
 * `instructions.mjs`). Alone, writes bench/grpc.json.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runChild } from './child-run.mjs';
import { callgrindRun } from './callgrind.mjs';
import { GRPC_CONTENDERS, GRPC_CONTENDER_NAMES, GRPC_WORKLOADS } from './grpc-defs.mjs';
import { CLIENT_CPU, SERVER_CPU, canPin, pinProcess, pinnedCommand, pinningNote } from './pinning.mjs';
import { fmt, median } from './stats.mjs';
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

async function measure(key, w, url) {
  const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, [CHILD, key, w.key, url, 'measure', String(w.units), '3']);
  const { report } = await runChild(cmd, args, { timeoutMs: 300_000 });
  if (!report.ok) throw new Error(`${key}/${w.key}: ${report.error}`);
  return { cpu: median(report.cpuUsPerUnit), rate: median(report.rates) };
}

async function instructions(key, w, url) {
  const run = (units) => callgrindRun(key, w, url, units, { warmUnits: w.icWarm ?? 0, transport: 'socket', child: CHILD });
  const a = await run(w.ic[0]);
  const b = await run(w.ic[1]);
  return (b.instructions - a.instructions) / (b.units - a.units);
}

/** One workload: `rounds` rounds of every contender (order rotating), medians and per-round ratios. */
async function measureRow(w, url, rounds, ic, log) {
  const keys = GRPC_CONTENDERS[w.kind];
  const perRound = [];
  for (let r = 0; r < rounds; r++) {
    const order = keys.map((_, i) => keys[(i + r) % keys.length]);
    const row = {};
    for (const key of order) row[key] = await measure(key, w, url);
    perRound.push(row);
    log(`  ${w.key} round ${r + 1}: ${keys.map((k) => `${k} ${row[k].cpu.toFixed(1)} µs`).join(', ')}`);
  }
  const cells = {};
  for (const key of keys) {
    const vs = (pick) => perRound.map((x) => pick(x[key]) / pick(x.official));
    cells[key] = {
      cpuUs: median(perRound.map((x) => x[key].cpu)),
      rate: median(perRound.map((x) => x[key].rate)),
      ...(key === 'official' ? {} : { cpuVsOfficial: median(vs((c) => c.cpu)), rateVsOfficial: median(vs((c) => c.rate)), cpuVsOfficialRounds: vs((c) => c.cpu) }),
    };
    if (ic) {
      cells[key].instructions = await instructions(key, w, url);
      log(`  ${w.key} ${key}: ${Math.round(cells[key].instructions)} instructions/${w.kind === 'unary' ? 'call' : 'event'}`);
    }
  }
  if (ic) for (const key of keys) if (key !== 'official') cells[key].instructionsVsOfficial = cells[key].instructions / cells.official.instructions;
  return { label: w.label, kind: w.kind, cells };
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
  return `${lines.join('\n')}\n\n${meta.pinning}; ${meta.rounds} rounds, medians; ratios within each round.`;
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
  return `${[renderRows(rows), ...errors].join('\n')}\n  ${meta.rounds} rounds, a client process per contender per round (warm-up, median of 3 runs); ratios within each round, their median; ${meta.pinning}`;
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
