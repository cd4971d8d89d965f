/**
 * The measured CLIENT process of the realistic workloads (spawned pinned to the client core, or
 * under valgrind by the instruction mode). argv: <contender> <workload> <baseUrl> <mode> [units]
 * [reps]. Prints ONE line of JSON on stdout:
 *   mode `measure`: warm-up, then `reps` runs of `units` → `{ rates, cpuUsPerUnit, sysUsPerUnit, peakRssMB, readsPerEvent? }`
 *                   (sysUsPerUnit: the kernel's share of cpuUsPerUnit)
 *                   (readsPerEvent: read syscalls per unit from /proc/self/io — 1.0 means every SSE
 *                   frame arrived in its own socket read)
 *   mode `slices`:  warm-up, then one run of `units` per turn its parent gives over IPC (`slices.mjs`;
 *                   read syscalls per slice included) → `{ peakRssMB }` at the end
 *   mode `once`:    a single run of `units` (the instruction mode subtracts a small run from a large
 *                   one, so start-up and JIT warm-up cancel) → `{ units, ms, readsPerUnit, startUs, endUs }`
 *                   (start/end of the run on the monotonic clock, µs: the window profile-breakdown keeps)
 * Env BENCH_GAP_US paces per-frame writes of the `once` run (see sse-writer.mjs); BENCH_WARM_UNITS
 * runs that many units unpaced first (paced runs are slow under valgrind, so the JIT warms up before).
 */
import { readFileSync } from 'node:fs';
import { openWorkloadClient } from './workload-clients.mjs';
import { workload } from './workload-defs.mjs';
import { serveSlices } from './slices.mjs';

const [key, workloadKey, baseUrl, mode = 'measure', unitsArg, repsArg] = process.argv.slice(2);

/** Read syscalls of this process so far (Linux /proc/self/io `syscr`), or NaN elsewhere. */
function readSyscalls() {
  try {
    return Number(/syscr: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
  } catch {
    return Number.NaN;
  }
}

/** The warm-up before measured runs: the JIT settles on the row's own streams or calls. */
async function warmUp(client, units, w) {
  if (w.warmPerUnit) {
    // Paced workloads: the JIT warms up on the same streams unpaced (paced, a few thousand events
    // leave ours and the official client still being optimised through the measured runs: their
    // CPU per event fell by a third from the first run to the third), then on short paced streams.
    const streams = w.concurrency ?? 1;
    for (let i = 0; i < 2; i++) await client.run(0, 0, Math.max(50, Math.ceil(20_000 / streams)), { unpaced: true });
    await client.run(0, 0, w.warmPerUnit);
  } else {
    const warm = Math.max(units, 5_000);
    await client.run(warm);
    await client.run(warm);
  }
}

/** Runs `run(units)` `reps` times after a warm-up; returns rates and client CPU per unit. */
async function measure(client, units, reps, w) {
  await warmUp(client, units, w);
  const rates = [];
  const cpu = [];
  const sys = [];
  const reads = [];
  for (let i = 0; i < reps; i++) {
    const r0 = readSyscalls();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const done = await client.run(units);
    const ms = performance.now() - t0;
    const used = process.cpuUsage(c0);
    rates.push((done / ms) * 1000);
    cpu.push((used.user + used.system) / done);
    sys.push(used.system / done);
    reads.push((readSyscalls() - r0 - 1) / done);
  }
  return { rates, cpuUsPerUnit: cpu, sysUsPerUnit: sys, readsPerEvent: reads.every(Number.isFinite) ? reads : undefined };
}

async function main() {
  const w = workload(workloadKey);
  const units = Number(unitsArg ?? w.units);
  const client = await openWorkloadClient(key, baseUrl, w);
  let out;
  try {
    if (mode === 'slices') {
      // Warmed up as for `measure`, then one run of `units` per turn its parent gives (slices.mjs).
      await warmUp(client, units, w);
      // Each reading of the counter is a read of its own: one less per slice, as in `measure`.
      let readings = 0;
      await serveSlices((n) => client.run(n), () => readSyscalls() - readings++);
      out = {};
    } else if (mode === 'once') {
      const warm = Number(process.env.BENCH_WARM_UNITS ?? 0);
      if (warm > 0) await client.run(warm);
      // With --expose-gc (the instruction mode): a full collection before and after the run, so each
      // run's count includes collecting everything it allocated, not a share that depends on when
      // V8's heuristics happened to start a major GC.
      globalThis.gc?.();
      const r0 = readSyscalls();
      const t0 = performance.now();
      const startUs = Number(process.hrtime.bigint() / 1000n);
      const done = await client.run(units, Number(process.env.BENCH_GAP_US ?? 0));
      const endUs = Number(process.hrtime.bigint() / 1000n);
      globalThis.gc?.();
      out = { units: done, ms: performance.now() - t0, readsPerUnit: (readSyscalls() - r0 - 1) / done, startUs, endUs };
    } else {
      out = await measure(client, units, w.reps ?? Number(repsArg ?? 5), w);
    }
  } finally {
    await client.close();
  }
  out.peakRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ok: true, ...out })}\n`);
}

main().catch((err) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`);
  process.exitCode = 1;
});
