/**
 * Turns the measurements into ratios and a printed table (the target verdicts: `targets.mjs`).
 */
import { renderColdStart } from './cold-start.mjs';
import { renderBundleSize } from './bundle-size.mjs';
import { fmt, pairedRatio } from './stats.mjs';
import { OFFICIAL, RAW } from './contenders.mjs';
import { renderGrpc } from './grpc.mjs';
import { renderWorkloads } from './workloads-report.mjs';

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
  if (results.grpc?.error) out.push(`gRPC: ERROR ${results.grpc.error}`);
  else if (results.grpc) out.push(renderGrpc(results.grpc));
  const verdict = (p) => (p === null ? 'n/a' : p ? 'PASS' : 'FAIL');
  out.push(renderRows([
    ['Target', 'value', 'target', 'verdict'],
    ...results.targets.map((t) => [t.claim, t.value === undefined ? '-' : fmt(t.value, 3), t.target, verdict(t.pass)]),
  ]));
  return out.join('\n\n');
}
