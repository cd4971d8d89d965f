/**
 * The gRPC bench (issue 24): `npm run bench:grpc` (= `node bench/grpc.mjs [workload...]`), after
 * `npm run build`. A minimal grpc-js A2A agent (`grpc-server.mjs`, answers pre-encoded) runs in a
 * child pinned to the server core; every measured client runs in its own process pinned to the client
 * core (`grpc-child.mjs`): the official `@a2a-js/sdk` gRPC client (`@a2a-js/sdk/client/grpc`) and ours,
 * connected from the same card. Same-run alternating comparison: `BENCH_GRPC_ROUNDS` rounds (default
 * 5), each running every contender once (order rotating) — warm-up, then 3 runs — and the medians
 * of client CPU µs per call / event and of the rate; the ratio ours / official is taken within each
 * round, and its median reported. With `--ic` (or BENCH_GRPC_IC=1) it also counts instructions per
 * call / event under callgrind ((large − small) / extra units, as `instructions.mjs`).
 * Writes bench/grpc.json.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runChild } from './child-run.mjs';
import { callgrindRun } from './callgrind.mjs';
import { GRPC_CONTENDERS, GRPC_CONTENDER_NAMES, GRPC_WORKLOADS } from './grpc-defs.mjs';
import { CLIENT_CPU, SERVER_CPU, canPin, pinProcess, pinnedCommand, pinningNote } from './pinning.mjs';
import { median } from './stats.mjs';

const CHILD = fileURLToPath(new URL('./grpc-child.mjs', import.meta.url));
const SERVER = fileURLToPath(new URL('./grpc-server.mjs', import.meta.url));
const log = (m) => process.stderr.write(`${m}\n`);

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

async function main() {
  if (!existsSync(fileURLToPath(new URL('../dist/src/index.js', import.meta.url)))) throw new Error('dist/src/index.js not found: run `npm run build` first');
  const words = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const ic = process.argv.includes('--ic') || process.env.BENCH_GRPC_IC === '1';
  const rounds = Number(process.env.BENCH_GRPC_ROUNDS ?? 5);
  const server = await startServer();
  const results = {};
  try {
    for (const w of GRPC_WORKLOADS.filter((x) => words.length === 0 || words.includes(x.key))) {
      const keys = GRPC_CONTENDERS[w.kind];
      const perRound = [];
      for (let r = 0; r < rounds; r++) {
        const order = keys.map((_, i) => keys[(i + r) % keys.length]);
        const row = {};
        for (const key of order) row[key] = await measure(key, w, server.url);
        perRound.push(row);
        log(`  ${w.key} round ${r + 1}: ${keys.map((k) => `${k} ${row[k].cpu.toFixed(1)} µs`).join(', ')}`);
      }
      const cells = {};
      for (const key of keys) {
        cells[key] = {
          cpuUs: median(perRound.map((x) => x[key].cpu)),
          rate: median(perRound.map((x) => x[key].rate)),
          ...(key === 'official' ? {} : { cpuVsOfficial: median(perRound.map((x) => x[key].cpu / x.official.cpu)), rateVsOfficial: median(perRound.map((x) => x[key].rate / x.official.rate)) }),
        };
        if (ic) {
          cells[key].instructions = await instructions(key, w, server.url);
          log(`  ${w.key} ${key}: ${Math.round(cells[key].instructions)} instructions/${w.kind === 'unary' ? 'call' : 'event'}`);
        }
      }
      if (ic) for (const key of keys) if (key !== 'official') cells[key].instructionsVsOfficial = cells[key].instructions / cells.official.instructions;
      results[w.key] = { label: w.label, kind: w.kind, cells };
    }
  } finally {
    server.stop();
  }
  const meta = { date: new Date().toISOString(), node: process.version, rounds, pinning: canPin() ? pinningNote() : 'UNPINNED' };
  await writeFile(fileURLToPath(new URL('./grpc.json', import.meta.url)), `${JSON.stringify({ meta, results }, null, 2)}\n`);
  const lines = ['| workload | contender | client CPU µs/op | vs official | ops/s | vs official |' + (ic ? ' instructions/op | vs official |' : ''), '| --- | --- | ---: | ---: | ---: | ---: |' + (ic ? ' ---: | ---: |' : '')];
  for (const { label, cells } of Object.values(results)) {
    for (const [key, c] of Object.entries(cells)) {
      const x = (v) => (v === undefined ? '' : `${v.toFixed(2)}x`);
      lines.push(`| ${label} | ${GRPC_CONTENDER_NAMES[key]} | ${c.cpuUs.toFixed(1)} | ${x(c.cpuVsOfficial)} | ${Math.round(c.rate)} | ${x(c.rateVsOfficial)} |` + (ic ? ` ${Math.round(c.instructions)} | ${x(c.instructionsVsOfficial)} |` : ''));
    }
  }
  process.stdout.write(`${lines.join('\n')}\n\n${meta.pinning}; ${rounds} rounds, medians; ratios within each round.\n`);
}

main().catch((err) => {
  log(`grpc bench failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
});
