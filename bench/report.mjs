/**
 * Turns the measurements into ratios, target verdicts and a printed table.
 */
import { renderColdStart } from './cold-start.mjs';
import { renderBundleSize } from './bundle-size.mjs';
import { fmt, pairedRatio } from './stats.mjs';
import { OFFICIAL, RAW } from './contenders.mjs';
import { renderWorkloads } from './workloads-report.mjs';
import { WORKLOADS } from './workload-defs.mjs';

/** Adds `vsRaw` / `vsOfficial` (paired ratio summaries) to every contender of a throughput section. */
export function addRatios(section) {
  const raw = section[RAW]?.rates ?? [];
  const official = section[OFFICIAL]?.rates ?? [];
  for (const [key, r] of Object.entries(section)) {
    if (key !== RAW) r.vsRaw = pairedRatio(r.rates, raw);
    if (key !== OFFICIAL && key !== RAW) r.vsOfficial = pairedRatio(r.rates, official);
  }
  return section;
}

/** The largest peak RSS of ours (`sendStreamingMessage`, `stream()`) over the official client's, across the streaming rows. */
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

/** The product's claims, checked against the results (`pass: null` when not measured). */
export function checkTargets(results) {
  const t = [];
  const add = (claim, value, target, pass) => t.push({ claim, value, target, pass: value === undefined ? null : pass });
  const u = results.unary ?? {};
  const s = results.stream ?? {};
  const v = (x) => x?.median;
  add('unary invoke / raw undici', v(u.invoke?.vsRaw), '>= 0.85', v(u.invoke?.vsRaw) >= 0.85);
  add('unary invoke / official', v(u.invoke?.vsOfficial), '>= 4', v(u.invoke?.vsOfficial) >= 4);
  add('unary sendMessage / raw undici', v(u.sendMessage?.vsRaw), '>= 0.85', v(u.sendMessage?.vsRaw) >= 0.85);
  add('unary sendMessage / official', v(u.sendMessage?.vsOfficial), '>= 4', v(u.sendMessage?.vsOfficial) >= 4);
  add('stream sendStreamingMessage / raw', v(s.sendStreamingMessage?.vsRaw), '>= 0.8', v(s.sendStreamingMessage?.vsRaw) >= 0.8);
  add('stream sendStreamingMessage / official', v(s.sendStreamingMessage?.vsOfficial), '>= 1.5', v(s.sendStreamingMessage?.vsOfficial) >= 1.5);
  add('stream stream() / raw', v(s.stream?.vsRaw), '>= 0.8', v(s.stream?.vsRaw) >= 0.8);
  add('stream stream() / official', v(s.stream?.vsOfficial), '>= 1.5', v(s.stream?.vsOfficial) >= 1.5);
  add('unary sendMessage, sharedState on Redis / off', v(results.shared?.ratio), '>= 0.95', v(results.shared?.ratio) >= 0.95);
  const b = results.breaker;
  add('breaker-open sendMessage p99 (ms)', b?.sendMessage?.p99Ms, '< 0.1', b?.sendMessage?.p99Ms < 0.1);
  add('breaker-open invoke p99 (ms)', b?.invoke?.p99Ms, '< 0.1', b?.invoke?.p99Ms < 0.1);
  const f = results.fanOut;
  add('fanOut max wall - totalMs (ms)', f?.overshootMs, '<= 50', f?.overshootMs <= 50);
  const m = results.memory?.stream;
  const n = results.meta.config.memoryEvents;
  add(`${n}-event stream() heap growth (MB)`, m?.ok ? m.heapGrowthMB : undefined, '< 10', m?.heapGrowthMB < 10);
  add(`${n}-event stream() max mid-stream growth (MB)`, m?.ok ? m.maxMidStreamGrowthMB : undefined, '< 10', m?.maxMidStreamGrowthMB < 10);
  // Issue 26: one write per frame, and peak RSS of every streaming row (ours vs the official client).
  const rows = results.workloads?.rows;
  const pf = rows?.['per-frame'];
  const cpuVs = (k) => (pf?.[k]?.cpuUs !== undefined && pf?.official?.cpuUs > 0 ? pf[k].cpuUs / pf.official.cpuUs : undefined);
  add('per-frame CPU/event: sendStreamingMessage / official', cpuVs('ssm'), '<= 0.75', cpuVs('ssm') <= 0.75);
  add('per-frame CPU/event: stream() / official', cpuVs('stream'), '<= 0.85', cpuVs('stream') <= 0.85);
  const over = rssOverOfficial(rows);
  add('streaming rows: peak RSS - official, worst (MB)', over?.mb, '<= 10', over?.mb <= 10);
  const cs = results.coldStart?.rows?.ours;
  add('cold start: import / official', cs?.importVsOfficial, '<= 1.5', cs?.importVsOfficial <= 1.5);
  add('cold start: RSS after import - official (MB)', cs?.rssOverOfficial, '<= 10', cs?.rssOverOfficial <= 10);
  add('cold start: start to first answer / official', cs?.firstVsOfficial, '<= 1.2', cs?.firstVsOfficial <= 1.2);
  add('cold start: a2a-resilient --version (ms)', results.coldStart?.versionMs, '< 150', results.coldStart?.versionMs < 150);
  add('browser bundle (gzipped) / official', results.bundleSize?.ratioGzipped, '<= 1.0', results.bundleSize?.ratioGzipped <= 1);
  const aj = results.a2aJs?.rows;
  add('a2a-js Client CPU/call: our transports / its own', v(aj?.unary?.ratio), '<= 1.0', v(aj?.unary?.ratio) <= 1);
  add('a2a-js Client CPU/stream event: our transports / its own', v(aj?.stream?.ratio), '<= 1.0', v(aj?.stream?.ratio) <= 1);
  return t;
}

function ratioCell(r) {
  return r ? `${fmt(r.median, 2)} (${fmt(r.min, 2)}-${fmt(r.max, 2)})` : '-';
}

function throughputTable(title, unit, section) {
  const rows = [[title, `${unit} median`, 'min', 'max', 'vs raw', 'vs official']];
  for (const r of Object.values(section)) {
    rows.push([
      r.name + (r.error ? ' (!)' : ''),
      fmt(r.summary?.median),
      fmt(r.summary?.min),
      fmt(r.summary?.max),
      ratioCell(r.vsRaw),
      ratioCell(r.vsOfficial),
    ]);
  }
  const errors = Object.values(section).filter((r) => r.error).map((r) => `  (!) ${r.name}: ${r.error}`);
  return [renderRows(rows), ...errors].join('\n');
}

function renderRows(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r, n) => {
      const line = r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
      return n === 0 ? `${line}\n${'-'.repeat(line.length)}` : line;
    })
    .join('\n');
}

/** The whole printed report. */
export function renderReport(results) {
  const out = [];
  if (results.unary) out.push(throughputTable(`Unary (${results.meta.config.unaryCalls} calls, c=${results.meta.config.concurrency})`, 'calls/s', results.unary));
  if (results.stream) out.push(throughputTable(`Streaming (${results.meta.config.streamEvents} events)`, 'events/s', results.stream));
  const sh = results.shared;
  if (sh?.error) out.push(`Shared state: ERROR ${sh.error}`);
  else if (sh?.skipped) out.push(`Shared state: skipped (${sh.skipped})`);
  else if (sh) {
    out.push(renderRows([
      [`Shared state (${results.meta.config.unaryCalls} calls, c=${results.meta.config.concurrency})`, 'calls/s median', 'min', 'max', 'CPU µs/call', 'on / off'],
      ...['off', 'on'].map((k) => [sh[k].name, fmt(sh[k].summary?.median), fmt(sh[k].summary?.min), fmt(sh[k].summary?.max), fmt(sh[k].cpu?.median, 1), k === 'on' ? ratioCell(sh.ratio) : '']),
    ]));
    out.push(`  on / off by CPU time per call (higher is better): ${ratioCell(sh.cpuRatio)}`);
  }
  const b = results.breaker;
  if (b?.error) out.push(`Breaker open: ERROR ${b.error}`);
  else if (b) {
    out.push(renderRows([
      ['Breaker open (fail fast)', 'calls', 'p50 ms', 'p99 ms', 'max ms'],
      ...['sendMessage', 'invoke'].map((k) => [k, b[k].calls, fmt(b[k].p50Ms, 4), fmt(b[k].p99Ms, 4), fmt(b[k].maxMs, 3)]),
    ]));
  }
  const f = results.fanOut;
  if (f?.error) out.push(`fanOut: ERROR ${f.error}`);
  else if (f) {
    const last = f.rounds.at(-1);
    out.push(`fanOut ${f.agents} agents (${f.hanging} hang), totalMs ${f.totalMs}: wall median ${fmt(f.wallMs.median, 1)} ms ` +
      `(min ${fmt(f.wallMs.min, 1)}, max ${fmt(f.wallMs.max, 1)}), overshoot ${fmt(f.overshootMs, 1)} ms; ` +
      `last round ok=${last.ok} failed=${last.failed} [${last.failedTypes.join(', ')}] skipped=${last.skipped}`);
  }
  if (results.memory) {
    const rows = [[`Memory (${results.meta.config.memoryEvents} events)`, 'peak RSS MB', 'heap growth MB', 'max mid-stream MB']];
    for (const m of Object.values(results.memory)) {
      rows.push(m.ok ? [m.contender, fmt(m.peakRssMB, 1), fmt(m.heapGrowthMB, 2), fmt(m.maxMidStreamGrowthMB, 2)] : [`${m.contender} (!) ${m.error}`, '-', '-', '-']);
    }
    out.push(renderRows(rows));
  }
  if (results.memoryLongAnswer) {
    const label = { raw: 'raw', stream: 'stream()', streamLean: 'stream({ accumulate: false })' };
    const rows = [[`Long answer (${results.meta.config.memoryLongEvents} × 4 KB chunks)`, 'peak RSS MB', 'heap growth MB', 'max mid-stream MB']];
    for (const m of Object.values(results.memoryLongAnswer)) {
      const name = label[m.contender] ?? m.contender;
      rows.push(m.ok ? [name, fmt(m.peakRssMB, 1), fmt(m.heapGrowthMB, 2), fmt(m.maxMidStreamGrowthMB, 2)] : [`${name} (!) ${m.error}`, '-', '-', '-']);
    }
    out.push(renderRows(rows));
  }
  if (results.coldStart) out.push(renderColdStart(results.coldStart));
  if (results.bundleSize && !results.bundleSize.error) out.push(renderBundleSize(results.bundleSize));
  const aj = results.a2aJs;
  if (aj?.error) out.push(`a2a-js Client: ERROR ${aj.error}`);
  else if (aj) {
    out.push(renderRows([
      ['@a2a-js/sdk Client, client CPU µs', 'over resilientTransports()', 'over its own transports', 'ours / theirs'],
      ...Object.values(aj.rows).map((r) => (r.error ? [`${r.label} (!) ${r.error}`, '-', '-', '-'] : [r.label, fmt(r.ours.cpuUs, 2), fmt(r.theirs.cpuUs, 2), ratioCell(r.ratio)])),
    ]));
    out.push(`  ${aj.meta.rounds} rounds, a client process per contender per round (median of ${aj.meta.runsPerProcess} runs); ${aj.meta.pinning}`);
  }
  if (results.workloads?.error) out.push(`Workloads: ERROR ${results.workloads.error}`);
  else if (results.workloads) out.push(renderWorkloads(results.workloads));
  const verdict = (p) => (p === null ? 'n/a' : p ? 'PASS' : 'FAIL');
  out.push(renderRows([
    ['Target', 'value', 'target', 'verdict'],
    ...results.targets.map((t) => [t.claim, t.value === undefined ? '-' : fmt(t.value, 3), t.target, verdict(t.pass)]),
  ]));
  return out.join('\n\n');
}
