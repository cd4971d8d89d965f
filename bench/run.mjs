/**
 * `npm run bench`: measures a2a-resilient side by side with raw undici and the official
 * @a2a-js/sdk client against a minimal loopback agent in a child process, prints a table and writes
 * bench/results.json. Expects a build (`npm run build`) — it imports the SDK from dist/ through the
 * package's own name. Counts: see bench/config.mjs (BENCH_QUICK=1 for a ~30 s smoke run).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { config, wanted } from './config.mjs';
import { streamContenders, unaryContenders } from './contenders.mjs';
import { a2aJsSection } from './a2a-js.mjs';
import { bundleSizeSection } from './bundle-size.mjs';
import { coldStartSection } from './cold-start.mjs';
import { breakerOpen, fanOutHang } from './failure-paths.mjs';
import { memoryProbe } from './memory.mjs';
import { sharedStateSection } from './shared-state.mjs';
import { addRatios, renderReport } from './report.mjs';
import { checkTargets } from './targets.mjs';
import { loadSdk } from './sdk.mjs';
import { startAgents } from './server-control.mjs';
import { registerTracing } from './tracing.mjs';
import { describe, sideBySide, streamMeasure, unaryMeasure } from './throughput.mjs';
import { workloadsSection } from './workloads.mjs';
import { grpcSection } from './grpc.mjs';

const distEntry = fileURLToPath(new URL('../dist/src/index.js', import.meta.url));
const resultsPath = fileURLToPath(new URL('./results.json', import.meta.url));
const log = (msg) => process.stderr.write(`${msg}\n`);

async function main() {
  if (!existsSync(distEntry)) {
    log('bench: dist/src/index.js not found. `npm run bench` measures the built SDK: run `npm run build` first.');
    process.exitCode = 1;
    return;
  }
  const started = performance.now();
  const tracing = registerTracing();
  if (tracing) log('bench: BENCH_TRACING=1 - an OpenTelemetry SDK is registered: every a2a-resilient call makes a span');
  const { sdk, error: sdkError } = await loadSdk();
  if (!sdk) log(`bench: a2a-resilient did not load (${sdkError}); measuring the baselines only.`);

  const results = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadavg: os.loadavg(),
      config,
      commit: gitCommit(),
      sdkLoaded: Boolean(sdk),
      tracing: Boolean(tracing),
      sdkError,
      note: 'Shared, noisy machine: compare the ratios (paired per repetition), not absolute numbers.',
    },
  };

  if (sdk && wanted('coldstart')) {
    // First, before the other sections' servers and children load the machine.
    log(`coldstart: ${Math.max(5, config.reps)} repetitions, a fresh process per sample (import; start to first answer), plus the CLI's --version`);
    results.coldStart = await coldStartSection({ reps: Math.max(5, config.reps), log }).catch((err) => ({ error: describe(err) }));
  }
  if (wanted('bundle')) {
    log('bundle: browser bundle sizes, ours vs the official client (esbuild, minified + gzipped; ~3 s)');
    results.bundleSize = await bundleSizeSection().catch((err) => ({ error: describe(err) }));
  }
  const agents = await startAgents(['ok', '503', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'hang', 'hang', 'hang'], {
    BENCH_SSE_BATCH: String(config.sseBatch),
  });
  const [okUrl, url503] = agents.urls;
  const fanOk = [agents.urls[0], ...agents.urls.slice(2, 8)];
  const fanHang = agents.urls.slice(8);
  try {
    if (wanted('unary')) {
      log(`unary: ${config.unaryCalls} calls x ${config.reps} reps, concurrency ${config.concurrency}`);
      results.unary = addRatios(await sideBySide(unaryContenders(sdk), okUrl, config.reps, unaryMeasure(config.unaryCalls, config.concurrency), log));
    }
    if (wanted('stream')) {
      log(`stream: ${config.streamEvents} events x ${config.streamReps} reps`);
      results.stream = addRatios(await sideBySide(streamContenders(sdk), okUrl, config.streamReps, streamMeasure(config.streamEvents), log));
    }
    if (sdk && wanted('shared')) {
      const reps = 2 * config.reps;
      log(`shared: ${config.unaryCalls} sendMessage calls x ${reps} reps, breaker and budget in the process vs on Redis`);
      results.shared = await sharedStateSection(sdk, okUrl, { reps, calls: config.unaryCalls, concurrency: config.concurrency }, log).catch((err) => ({ error: describe(err) }));
      if (results.shared.skipped) log(`  skipped: ${results.shared.skipped}`);
    }
    if (sdk && wanted('breaker')) {
      log(`breaker: ${config.breakerCalls} calls with the breaker open`);
      results.breaker = await breakerOpen(sdk, url503, config.breakerCalls).catch((err) => ({ error: describe(err) }));
    }
    if (sdk && wanted('fanout')) {
      log(`fanOut: 10 agents, 3 hanging, totalMs ${config.fanOutTotalMs}`);
      results.fanOut = await fanOutHang(sdk, fanOk, fanHang, config.fanOutTotalMs, config.reps).catch((err) => ({ error: describe(err) }));
    }
    if (wanted('memory')) {
      log(`memory: ${config.memoryEvents}-event stream per contender (child processes, --expose-gc)`);
      results.memory = { raw: await memoryProbe('raw', okUrl, config.memoryEvents) };
      if (sdk) {
        results.memory.stream = await memoryProbe('stream', okUrl, config.memoryEvents);
        results.memory.sendStreamingMessage = await memoryProbe('sendStreamingMessage', okUrl, config.memoryEvents);
      }
      // A long answer (4 KB chunks): stream() keeps the whole answer for its final event unless the
      // call says accumulate: false, which keeps the current chunk only (peak RSS next to raw's).
      const long = config.memoryLongEvents;
      log(`memory: long answer, ${long} × 4 KB chunks (${Math.round((long * 4096) / 1048576)} MB), raw vs stream() vs stream({ accumulate: false })`);
      results.memoryLongAnswer = { raw: await memoryProbe('raw', okUrl, long, 4096) };
      if (sdk) {
        results.memoryLongAnswer.stream = await memoryProbe('stream', okUrl, long, 4096);
        results.memoryLongAnswer.streamLean = await memoryProbe('streamLean', okUrl, long, 4096);
      }
    }
  } finally {
    await agents.stop();
  }
  try {
    if (sdk && wanted('a2ajs')) {
      log(`a2ajs: the official @a2a-js/sdk Client over resilientTransports() vs over its own transports, client CPU per call / event, ${config.reps} rounds`);
      results.a2aJs = await a2aJsSection({ reps: config.reps, quick: config.quick, log }).catch((err) => ({ error: describe(err) }));
    }
    if (wanted('workloads')) {
      log(`workloads: realistic workloads (issue 15), each contender in its own pinned client process, median of ${config.reps}`);
      results.workloads = await workloadsSection({ reps: config.reps, log }).catch((err) => ({ error: describe(err) }));
    }
    if (sdk && wanted('grpc')) {
      log(`grpc: ours vs the official @a2a-js/sdk gRPC client, client CPU per call / event, ${config.reps * 4} interleaved turns per row (a client process per contender, side by side)`);
      results.grpc = await grpcSection({ reps: config.reps, log }).catch((err) => ({ error: describe(err) }));
    }
  } finally {
    if (tracing) {
      await tracing.shutdown();
      log(`bench: ${tracing.exporter.spans} spans exported`);
    }
  }

  results.targets = checkTargets(results);
  results.meta.elapsedS = (performance.now() - started) / 1000;
  await writeFile(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${renderReport(results)}\n\nWrote ${resultsPath} (${results.meta.elapsedS.toFixed(1)} s)\n`);
}

/** The commit measured (with `+dirty` for uncommitted changes), or null outside a git checkout. */
function gitCommit() {
  try {
    const run = (args) => execFileSync('git', args, { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const head = run(['rev-parse', '--short', 'HEAD']);
    return run(['status', '--porcelain', '--untracked-files=no']) === '' ? head : `${head}+dirty`;
  } catch (err) {
    log(`bench: no git commit recorded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    return null;
  }
}

main().catch((err) => {
  log(`bench failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
});
