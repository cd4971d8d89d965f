/**
 * The a2a-js section: the official `@a2a-js/sdk` 1.x `Client` over OUR transports
 * (`resilientTransports()` + `resilientCardResolver()` from `a2a-resilient/a2a-js`) vs the same
 * `Client` over ITS OWN (`ClientFactoryOptions.default`: JSON-RPC with `A2A-Version`, global fetch).
 * Client CPU µs per unary call (`sendMessage`, a small Task, `UNARY_CONCURRENCY` in flight) and per
 * stream event (`sendMessageStream`, streams of `STREAM_EVENTS` artifact updates read one after the
 * other), against the bench's loopback agent (`server.mjs`) pinned to the server core.
 *
 * As in `workloads.mjs` / `grpc.mjs`: every contender runs in its OWN client process pinned to the
 * client core (this file, argv `child …`), warm-up then `RUNS` runs, CPU from `process.cpuUsage`;
 * `reps` rounds, the order alternating, the ratio ours / theirs taken within each round and its
 * median reported (target ≤ 1.0). Each child first checks that the agent answered (a completed Task,
 * every event of the stream) and reports what it got; the section fails a row whose two clients got
 * different results, so both really speak what the official client expects.
 */
import { fileURLToPath } from 'node:url';
import { runChild } from './child-run.mjs';
import { runConcurrent } from './load.mjs';
import { CLIENT_CPU, pinnedCommand, pinningNote } from './pinning.mjs';
import { median, pairedRatio } from './stats.mjs';
import { officialParams } from './official.mjs';
import { startPinnedServer } from './workloads.mjs';

const SELF = fileURLToPath(import.meta.url);
/** Events per stream: an answer of realistic size (a few hundred chunks). */
export const STREAM_EVENTS = 200;
/** Unary calls in flight. */
export const UNARY_CONCURRENCY = 8;
/** Measured runs per child process (after the warm-up); the child's median is the round's cell. */
const RUNS = 3;
/** TaskState.TASK_STATE_COMPLETED in the official client's numeric enum. */
const COMPLETED = 3;

/** Rows: `units` per measured run (calls, or events in streams of STREAM_EVENTS), full and quick. */
const ROWS = [
  { key: 'unary', label: `sendMessage, CPU µs/call (c=${UNARY_CONCURRENCY})`, units: [2_000, 1_000] },
  { key: 'stream', label: `sendMessageStream, CPU µs/event (${STREAM_EVENTS}-event streams)`, units: [20_000, 6_000] },
];

/** The official Client, over our transports (`ours`) or its own (`theirs`). */
async function openClient(key, baseUrl) {
  const { ClientFactory, ClientFactoryOptions } = await import('@a2a-js/sdk/client');
  if (key === 'theirs') return new ClientFactory(ClientFactoryOptions.default).createFromUrl(baseUrl);
  const { resilientTransports, resilientCardResolver } = await import('a2a-resilient/a2a-js');
  return new ClientFactory({ transports: resilientTransports(), cardResolver: resilientCardResolver() }).createFromUrl(baseUrl);
}

/** Child: `run(units)` performs `units` calls or events; `sample()` is what the agent answered, as JSON. */
async function openChild(key, row, baseUrl) {
  const client = await openClient(key, baseUrl);
  const unary = async () => {
    const result = await client.sendMessage(officialParams('hi'));
    if (result?.status?.state !== COMPLETED) throw new Error(`${key}: task not completed (${JSON.stringify(result).slice(0, 200)})`);
    return result;
  };
  const stream = async (n) => {
    const items = [];
    for await (const item of client.sendMessageStream(officialParams(`stream ${n}`))) items.push(item);
    // The working task, n artifact updates, the final status.
    if (items.length < n + 2) throw new Error(`${key}: ${items.length} items for a ${n}-event stream`);
    return items;
  };
  return {
    sample: async () => JSON.stringify(row === 'unary' ? await unary() : await stream(3)),
    async run(units) {
      if (row === 'unary') await runConcurrent(units, UNARY_CONCURRENCY, unary);
      else for (let done = 0; done < units; done += STREAM_EVENTS) await stream(STREAM_EVENTS);
      return units;
    },
  };
}

/** Child main: argv `child <ours|theirs> <unary|stream> <baseUrl> <units>`; prints one line of JSON. */
async function childMain([key, row, baseUrl, unitsArg]) {
  const units = Number(unitsArg);
  const c = await openChild(key, row, baseUrl);
  const sample = await c.sample();
  // Warm-up: two runs of the measured size (so the JIT has settled).
  await c.run(units);
  await c.run(units);
  const rates = [];
  const cpuUsPerUnit = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const done = await c.run(units);
    const ms = performance.now() - t0;
    const used = process.cpuUsage(c0);
    rates.push((done / ms) * 1000);
    cpuUsPerUnit.push((used.user + used.system) / done);
  }
  return { ok: true, sample, rates, cpuUsPerUnit, peakRssMB: process.resourceUsage().maxRSS / 1024 };
}

/**
 * Measures both rows. Resolves `{ meta, rows: { [row]: { label, ours, theirs, ratio } } }`, each
 * contender `{ cpuUs, rate, cpuUsPerRound }` (medians over rounds), `ratio` the paired ours / theirs
 * CPU summary (lower is better), or `error` on the row.
 */
export async function a2aJsSection({ reps = 5, quick = false, log = () => {} } = {}) {
  const server = await startPinnedServer();
  const rows = {};
  try {
    for (const row of ROWS) {
      const units = row.units[quick ? 1 : 0];
      const cells = { ours: { cpu: [], rate: [] }, theirs: { cpu: [], rate: [] } };
      const samples = {};
      let error;
      for (let round = 0; round < reps && !error; round++) {
        for (const key of round % 2 ? ['theirs', 'ours'] : ['ours', 'theirs']) {
          const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, [SELF, 'child', key, row.key, server.url, String(units)]);
          const { report } = await runChild(cmd, args, { timeoutMs: 300_000 });
          if (!report.ok) {
            error = `${key}: ${report.error}`;
            break;
          }
          samples[key] ??= report.sample;
          cells[key].cpu.push(median(report.cpuUsPerUnit));
          cells[key].rate.push(median(report.rates));
        }
        if (!error) log(`  ${row.key} round ${round + 1}/${reps}: ours ${cells.ours.cpu.at(-1).toFixed(2)} µs, theirs ${cells.theirs.cpu.at(-1).toFixed(2)} µs CPU/${row.key === 'unary' ? 'call' : 'event'}`);
      }
      if (!error && samples.ours !== samples.theirs) error = `the two clients got different results: ours ${samples.ours.slice(0, 300)} | theirs ${samples.theirs.slice(0, 300)}`;
      if (error) log(`  ${row.key}: ERROR ${error}`);
      const cell = (k) => ({ cpuUs: median(cells[k].cpu), rate: median(cells[k].rate), cpuUsPerRound: cells[k].cpu });
      rows[row.key] = error ? { label: row.label, error } : { label: row.label, units, ours: cell('ours'), theirs: cell('theirs'), ratio: pairedRatio(cells.ours.cpu, cells.theirs.cpu) };
    }
  } finally {
    await server.stop();
  }
  return { meta: { pinning: server.pinned ? pinningNote() : 'UNPINNED (taskset unavailable or failed)', rounds: reps, runsPerProcess: RUNS }, rows };
}

if (process.argv[1] === SELF && process.argv[2] === 'child') {
  childMain(process.argv.slice(3))
    .then((out) => process.stdout.write(`${JSON.stringify(out)}\n`))
    .catch((err) => {
      process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`);
      process.exitCode = 1;
    });
}
