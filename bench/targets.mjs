/**
 * The product's claims, checked against the results of `npm run bench` (`checkTargets`): one line
 * per claim, `pass: null` when its section did not run.
 */
import { GRPC_CONTENDERS, GRPC_CONTENDER_NAMES, GRPC_REFERENCES, GRPC_WORKLOADS } from './grpc-defs.mjs';
import { WORKLOADS } from './workload-defs.mjs';

/** Streaming rows where `stream()` is checked against `sendStreamingMessage` and the official client (issue: stream() at ssm's cost). */
const STREAM_CPU_ROWS = ['batched', 'per-frame', 'text-400', 'paced', 'paced-1ms', 'paced-5ms', 'concurrent'];
/** Rows of a few fast paced streams: each frame its own read, ours against raw. */
const PACED_FAST_ROWS = ['paced-1ms', 'paced-5ms'];

/**
 * The largest peak RSS of ours (`sendStreamingMessage`, the default `stream()`) over the official
 * client's, across the streaming rows.
 */
function rssOverOfficial(rows) {
  let worst;
  for (const w of WORKLOADS) {
    const row = rows?.[w.key];
    if (w.kind !== 'stream' || row?.official?.peakRssMB === undefined) continue;
    for (const k of ['ssm', 'stream']) {
      const mine = row[k]?.peakRssMB;
      if (mine !== undefined && (worst === undefined || mine - row.official.peakRssMB > worst.mb)) worst = { mb: mine - row.official.peakRssMB, row: w.key, contender: k };
    }
  }
  return worst;
}

/**
 * CPU per event of contender `a` over contender `b` in workload row `row` (undefined when either is
 * missing). A row of interleaved turns gives the median of the turns' ratios, as the gRPC section
 * does: a machine that slows down for a while slows both cells of a turn.
 */
function cpuRatio(row, a, b) {
  const xs = row?.[a]?.cpuUsByRound;
  const ys = row?.[b]?.cpuUsByRound;
  if (Array.isArray(xs) && Array.isArray(ys) && xs.length > 1 && xs.length === ys.length && ys.every((y) => y > 0)) {
    const ratios = xs.map((x, i) => x / ys[i]).sort((p, q) => p - q);
    const mid = ratios.length >> 1;
    return ratios.length % 2 === 1 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
  }
  const x = row?.[a]?.cpuUs;
  const y = row?.[b]?.cpuUs;
  return Number.isFinite(x) && Number.isFinite(y) && y > 0 ? x / y : undefined;
}

/** The workload rows' targets (issue 26 and the stream()-at-ssm's-cost issue). */
function workloadTargets(rows, add) {
  const ran = (key) => Boolean(rows?.[key]);
  add('per-frame CPU/event: sendStreamingMessage / official', cpuRatio(rows?.['per-frame'], 'ssm', 'official'), '<= 0.75', (v) => v <= 0.75, ran('per-frame'));
  for (const key of STREAM_CPU_ROWS) {
    add(`${key} CPU/event: stream() / sendStreamingMessage`, cpuRatio(rows?.[key], 'stream', 'ssm'), '<= 1.15', (v) => v <= 1.15, ran(key));
    add(`${key} CPU/event: stream() / official`, cpuRatio(rows?.[key], 'stream', 'official'), '<= 0.85', (v) => v <= 0.85, ran(key));
  }
  for (const key of PACED_FAST_ROWS) {
    add(`${key} CPU/event: sendStreamingMessage / raw`, cpuRatio(rows?.[key], 'ssm', 'raw'), '<= 1.2', (v) => v <= 1.2, ran(key));
    add(`${key} CPU/event: stream() / raw`, cpuRatio(rows?.[key], 'stream', 'raw'), '<= 1.2', (v) => v <= 1.2, ran(key));
  }
  for (const w of WORKLOADS.filter((x) => x.longAnswer)) {
    const row = rows?.[w.key];
    const mb = Number.isFinite(row?.stream?.peakRssMB) && Number.isFinite(row?.raw?.peakRssMB) ? row.stream.peakRssMB - row.raw.peakRssMB : undefined;
    add(`${w.key} peak RSS: stream() (default) - raw (MB)`, mb, '<= 30', (v) => v <= 30, ran(w.key));
  }
  const over = rssOverOfficial(rows);
  add('streaming rows: peak RSS - official, worst (MB)', over?.mb, '<= 10', (v) => v <= 10);
}

/** gRPC: every one of ours at or below the official gRPC client's CPU per call / event (median of the turns' ratios). */
function grpcTargets(grpc, add) {
  for (const w of GRPC_WORKLOADS) {
    for (const key of GRPC_CONTENDERS[w.kind].filter((k) => !GRPC_REFERENCES.has(k))) {
      const name = GRPC_CONTENDER_NAMES[key].replace(/^ours /, '');
      const row = grpc?.results?.[w.key];
      add(`${w.key} CPU/op: ${name} / official gRPC client`, row?.cells?.[key]?.cpuVsOfficial, '<= 1.0', (v) => v <= 1, Boolean(row));
    }
  }
}

/**
 * The product's claims, checked against the results: `pass: null` when not measured, false when the
 * row was measured (`ran`) but a cell it needs failed.
 */
export function checkTargets(results) {
  const t = [];
  const add = (claim, value, target, test, ran = false) => t.push({ claim, value, target, pass: value === undefined ? (ran ? false : null) : Boolean(test(value)) });
  const u = results.unary ?? {};
  const s = results.stream ?? {};
  const v = (x) => x?.median;
  add('unary invoke / raw undici', v(u.invoke?.vsRaw), '>= 0.85', (x) => x >= 0.85);
  add('unary invoke / official', v(u.invoke?.vsOfficial), '>= 4', (x) => x >= 4);
  add('unary sendMessage / raw undici', v(u.sendMessage?.vsRaw), '>= 0.85', (x) => x >= 0.85);
  add('unary sendMessage / official', v(u.sendMessage?.vsOfficial), '>= 4', (x) => x >= 4);
  add('stream sendStreamingMessage / raw', v(s.sendStreamingMessage?.vsRaw), '>= 0.8', (x) => x >= 0.8);
  add('stream sendStreamingMessage / official', v(s.sendStreamingMessage?.vsOfficial), '>= 1.5', (x) => x >= 1.5);
  add('stream stream() / raw', v(s.stream?.vsRaw), '>= 0.8', (x) => x >= 0.8);
  add('stream stream() / official', v(s.stream?.vsOfficial), '>= 1.5', (x) => x >= 1.5);
  add('unary sendMessage, sharedState on Redis / off', v(results.shared?.ratio), '>= 0.95', (x) => x >= 0.95);
  const b = results.breaker;
  add('breaker-open sendMessage p99 (ms)', b?.sendMessage?.p99Ms, '< 0.1', (x) => x < 0.1);
  add('breaker-open invoke p99 (ms)', b?.invoke?.p99Ms, '< 0.1', (x) => x < 0.1);
  add('fanOut max wall - totalMs (ms)', results.fanOut?.overshootMs, '<= 50', (x) => x <= 50);
  const m = results.memory?.stream;
  const n = results.meta.config.memoryEvents;
  add(`${n}-event stream() heap growth (MB)`, m?.ok ? m.heapGrowthMB : undefined, '< 10', (x) => x < 10);
  add(`${n}-event stream() max mid-stream growth (MB)`, m?.ok ? m.maxMidStreamGrowthMB : undefined, '< 10', (x) => x < 10);
  workloadTargets(results.workloads?.rows, add);
  const cs = results.coldStart?.rows?.ours;
  add('cold start: import / official', cs?.importVsOfficial, '<= 1.5', (x) => x <= 1.5);
  add('cold start: RSS after import - official (MB)', cs?.rssOverOfficial, '<= 10', (x) => x <= 10);
  add('cold start: start to first answer / official', cs?.firstVsOfficial, '<= 1.2', (x) => x <= 1.2);
  add('cold start: a2a-resilient --version (ms)', results.coldStart?.versionMs, '< 150', (x) => x < 150);
  add('browser bundle (gzipped) / official', results.bundleSize?.ratioGzipped, '<= 1.0', (x) => x <= 1);
  const aj = results.a2aJs?.rows;
  add('a2a-js Client CPU/call: our transports / its own', v(aj?.unary?.ratio), '<= 1.0', (x) => x <= 1);
  add('a2a-js Client CPU/stream event: our transports / its own', v(aj?.stream?.ratio), '<= 1.0', (x) => x <= 1);
  grpcTargets(results.grpc, add);
  return t;
}
