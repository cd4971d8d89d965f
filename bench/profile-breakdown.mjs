/**
 * Where a contender's CPU goes on one workload, by bucket (see profile-buckets.mjs):
 *   node bench/profile-breakdown.mjs <contender> <workload> [units]
 *   e.g. node bench/profile-breakdown.mjs ssm per-frame
 * Spawns the workload client (`workload-child.mjs`, pinned to the client core) with `--cpu-prof`
 * against the pinned bench server, after a warm-up; keeps only the samples taken during the measured
 * run (start-up and warm-up left out, by the monotonic-clock window the child reports), attributes
 * SELF time to buckets by source file and prints % and µs per event (unary: per call), plus the
 * top-15 functions.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHILD_PATH, runChild } from './child-run.mjs';
import { CLIENT_CPU, pinnedCommand } from './pinning.mjs';
import { BUCKETS, bucketOf } from './profile-buckets.mjs';
import { renderRows } from './workloads-report.mjs';
import { contenderKey, workload } from './workload-defs.mjs';
import { startPinnedServer } from './workloads.mjs';

const repoUrl = new URL('..', import.meta.url).href;

/** Self time (µs) per profile node id, for samples within [fromUs, toUs] (monotonic clock). */
function selfTimes(profile, fromUs = -Infinity, toUs = Infinity) {
  const self = new Map();
  const dt = profile.timeDeltas ?? [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += dt[i] ?? 0;
    if (t >= fromUs && t <= toUs) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
  }
  return self;
}

/**
 * `{ buckets: Map(bucket → µs), functions: Map(label → µs), total }` of a cpuprofile (idle excluded),
 * counting samples within [fromUs, toUs] only.
 */
export function breakdown(profile, fromUs, toUs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const buckets = new Map(BUCKETS.map((b) => [b, 0]));
  const functions = new Map();
  let total = 0;
  for (const [id, us] of selfTimes(profile, fromUs, toUs)) {
    const { url, functionName, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') continue;
    total += us;
    const b = bucketOf(url, functionName);
    buckets.set(b, buckets.get(b) + us);
    const where = url.replace(repoUrl, '').replace(/^file:\/\/.*node_modules\//, '') || '(native)';
    const label = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''} [${b}]`;
    functions.set(label, (functions.get(label) ?? 0) + us);
  }
  return { buckets, functions, total };
}

async function main() {
  const [contenderArg, workloadKey, unitsArg] = process.argv.slice(2);
  if (!contenderArg || !workloadKey) {
    console.error('usage: node bench/profile-breakdown.mjs <raw|official|ssm|stream|sendMessage|invoke> <workload> [units]');
    process.exit(1);
  }
  const key = contenderKey(contenderArg);
  const w = workload(workloadKey);
  const units = Number(unitsArg ?? w.units * 2);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'a2a-prof-'));
  const server = await startPinnedServer();
  try {
    const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, CHILD_PATH, key, w.key, server.url, 'once', String(units)]);
    const { report } = await runChild(cmd, args, { env: { BENCH_WARM_UNITS: String(w.kind === 'unary' ? 500 : 5_000) } });
    if (!report.ok) throw new Error(`profiled run failed: ${report.error}`);
    const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
    const { buckets, functions, total } = breakdown(JSON.parse(await readFile(path.join(dir, file), 'utf8')), report.startUs, report.endUs);
    const warm = w.kind === 'unary' ? 500 : 5_000;
    const per = (us) => (us / units).toFixed(3);
    const unit = w.kind === 'unary' ? 'call' : 'event';
    const rows = [['bucket', '% of CPU', `µs/${unit}`]];
    for (const b of BUCKETS) rows.push([b, `${((buckets.get(b) / total) * 100).toFixed(1)}%`, per(buckets.get(b))]);
    rows.push(['total (excl. idle)', '100%', per(total)]);
    console.log(`${key} on ${w.label}: ${units} ${unit}s measured after ${warm} warm-up; ${(total / 1000).toFixed(0)} ms of CPU samples in the window\n`);
    console.log(renderRows(rows));
    const top = [...functions].sort((a, b) => b[1] - a[1]).slice(0, 15);
    console.log(`\n${renderRows([['top-15 functions by self time', '%', `µs/${unit}`], ...top.map(([f, us]) => [f.slice(0, 110), `${((us / total) * 100).toFixed(1)}%`, per(us)])])}`);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`profile-breakdown failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
});
