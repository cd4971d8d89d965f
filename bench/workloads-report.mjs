/**
 * Prints the realistic-workloads section in the issue's table shape: rows = workloads, columns =
 * raw, official, ours sendStreamingMessage, ours stream() (the unary row puts sendMessage and
 * invoke() in those two columns), and on the long-answer rows ours stream({ accumulate: false }).
 * Three tables: rate, client CPU µs per event/call, peak RSS; ours cells carry their ratios vs raw
 * and vs official.
 */
import { fmt } from './stats.mjs';
import { WORKLOADS, contendersOf } from './workload-defs.mjs';

const HEAD = ['raw', 'official', 'ours sendStreamingMessage', 'ours stream()', 'ours stream({ accumulate: false })'];

/** Renders rows of cells as an aligned text table (first row is the header). */
export function renderRows(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length)));
  return rows
    .map((r, n) => {
      const line = r.map((c, i) => (i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]))).join('  ');
      return n === 0 ? `${line}\n${'-'.repeat(line.length)}` : line;
    })
    .join('\n');
}

/** `a/b` formatted as `0.85x`, or '-' when either side is missing. */
export function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : '-';
}

function shortRate(n) {
  if (!Number.isFinite(n)) return '-';
  return n >= 10_000 ? `${fmt(n / 1000)}k` : fmt(n);
}

function table(section, title, pick, format) {
  const lean = Object.values(section.rows).some((row) => row.streamLean);
  const rows = [[title, ...(lean ? HEAD : HEAD.slice(0, -1))]];
  for (const w of WORKLOADS) {
    const row = section.rows[w.key];
    if (!row) continue;
    const keys = contendersOf(w, { lean });
    const raw = pick(row.raw);
    const off = pick(row.official);
    const cells = keys.map((k, i) => {
      const c = row[k];
      if (!c) return '';
      if (c.error) return 'ERROR';
      const v = pick(c);
      if (i === 0) return format(v);
      if (i === 1) return `${format(v)} (${ratio(v, raw)} raw)`;
      return `${format(v)} (${ratio(v, raw)} raw, ${ratio(v, off)} off)`;
    });
    const label = w.kind === 'unary' ? `${w.label} [sendMessage | invoke()]` : w.label;
    rows.push([label, ...cells]);
  }
  return renderRows(rows);
}

/** The printed section: three tables, the errors, and how the runs were pinned. */
export function renderWorkloads(section) {
  const out = [
    table(section, 'Rate (events/s; unary calls/s)', (c) => c?.rate, shortRate),
    table(section, 'Client CPU µs per event (unary: per call)', (c) => c?.cpuUs, (v) => fmt(v, 2)),
    table(section, 'Peak RSS of the client process (MB)', (c) => c?.peakRssMB, (v) => fmt(v, 0)),
  ];
  const errors = [];
  const reads = [];
  for (const [wk, row] of Object.entries(section.rows)) {
    for (const [k, c] of Object.entries(row)) if (c.error) errors.push(`  (!) ${wk} / ${k}: ${c.error}`);
    const w = WORKLOADS.find((x) => x.key === wk);
    const perContender = (w ? contendersOf(w, { lean: true }) : []).map((k) => row[k]?.readsPerEvent).map((r) => (r === undefined ? '-' : r.toFixed(r < 0.1 ? 3 : 2)));
    if (perContender.some((r) => r !== '-')) reads.push(`${wk} ${perContender.join(' / ')}`);
  }
  if (errors.length) out.push(errors.join('\n'));
  const turned = WORKLOADS.filter((w) => w.turns && section.rows[w.key]).map((w) => `${w.key} ${w.turns}`);
  const own = WORKLOADS.filter((w) => w.reps && !w.turns && section.rows[w.key]).map((w) => `${w.key} ${w.reps}`);
  out.push(`Medians of ${section.meta.reps} runs per cell${own.length ? ` (runs of the paced rows: ${own.join(', ')})` : ''}, each contender in its own client process${turned.length ? `; rows compared contender against contender take interleaved turns, the contenders' processes side by side, and give the medians of the turns (${turned.join(', ')} turns)` : ''}; ${section.meta.pinning}.\n` +
    `Ratios: rate and CPU are ours/raw and ours/official (rate: higher is better; CPU and RSS: lower is better).\n` +
    `Ours stream() is the default call on every row (its final event carries the whole answer, whose length the client reads); the 400 B and 4 KB rows add stream({ accumulate: false }).\n` +
    `Read syscalls per event (unary: per call), in the columns' order (1.0 = every frame its own socket read): ${reads.join(', ') || '-'}`);
  return out.join('\n\n');
}
