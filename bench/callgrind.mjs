/**
 * One client process under `valgrind --tool=callgrind`, for the instruction-count mode: runs
 * `workload-child.mjs <contender> <workload> <url> once <units>` pinned to the client core and
 * returns the total instructions executed (valgrind's "Collected : N" line, or the `totals:` line of
 * the out file). V8 writes JIT code into anonymous memory, hence `--smc-check=all-non-file`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHILD_PATH, runChild } from './child-run.mjs';
import { CLIENT_CPU, pinnedCommand } from './pinning.mjs';

/** Extra valgrind arguments from BENCH_VALGRIND_ARGS (space separated). */
const extraArgs = (process.env.BENCH_VALGRIND_ARGS ?? '').split(' ').filter(Boolean);
/**
 * Node flags of the measured process: `--single-threaded` makes V8 compile optimised code and
 * collect garbage on the main thread, when the work calls for it, not when a helper thread gets
 * scheduled (with helper threads the same run moved by up to 20 % under valgrind; without, it
 * repeats within 1 %); `--no-memory-reducer` stops V8 from running extra GCs when the allocation
 * rate is low (a paced stream under valgrind looks idle); `--expose-gc` lets the child collect
 * everything before and after its run (see workload-child.mjs): a major GC costs ~100–200 M
 * instructions, and whether one fell inside the small run moved a cell by up to 40 % between
 * identical runs. BENCH_IC_NODE_FLAGS replaces them.
 */
const nodeFlags = (process.env.BENCH_IC_NODE_FLAGS ?? '--single-threaded --no-memory-reducer --expose-gc').split(' ').filter(Boolean);

/** Total instructions from valgrind's stderr or from a callgrind out file's text (NaN when absent). */
export function parseTotal(stderr, outText = '') {
  const collected = /Collected\s*:\s*(\d+)/.exec(stderr);
  if (collected) return Number(collected[1]);
  const totals = /^(?:totals|summary):\s*(\d+)/m.exec(outText);
  return totals ? Number(totals[1]) : Number.NaN;
}

/**
 * Runs contender `key` on workload `w` for `units` events/calls under callgrind against `url`
 * (after `warmUnits` unpaced ones; per-frame writes `gapUs` apart), `transport` 'replay' (answered in the
 * client process, see replay-dispatcher.mjs) or 'socket' (the bench server at `url`); `child` the client
 * script (default `workload-child.mjs`; the gRPC bench passes `grpc-child.mjs`).
 * Resolves `{ instructions, units, readsPerUnit, wallS, report }`; throws when the run failed.
 */
export async function callgrindRun(key, w, url, units, { gapUs = 0, warmUnits = 0, transport = 'replay', child = CHILD_PATH } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-callgrind-'));
  const outFile = path.join(dir, 'callgrind.out');
  try {
    // --fair-sched=yes: a futex lock between guest threads instead of valgrind's pipe, so the read
    // syscalls the child counts (reads/event) are its own.
    const valgrindArgs = ['--tool=callgrind', '--smc-check=all-non-file', '--fair-sched=yes', `--callgrind-out-file=${outFile}`, ...extraArgs];
    const [cmd, args] = pinnedCommand(CLIENT_CPU, 'valgrind', [...valgrindArgs, process.execPath, ...nodeFlags, child, key, w.key, url, 'once', String(units)]);
    const { report, stderr, ms } = await runChild(cmd, args, { env: { BENCH_GAP_US: String(gapUs), BENCH_WARM_UNITS: String(warmUnits), BENCH_TRANSPORT: transport }, timeoutMs: 900_000 });
    if (!report.ok) throw new Error(`${key}/${w.key} x${units} under valgrind failed: ${report.error}`);
    let instructions = parseTotal(stderr);
    if (!Number.isFinite(instructions)) instructions = parseTotal('', await readFile(outFile, 'utf8').catch(() => ''));
    if (!Number.isFinite(instructions)) throw new Error(`${key}/${w.key}: no instruction total in valgrind's output`);
    return { instructions, units: report.units, readsPerUnit: report.readsPerUnit, runS: report.ms / 1000, wallS: ms / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
