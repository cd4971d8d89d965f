/**
 * The instruction-count table and the goal verdicts:
 *   sendStreamingMessage ≤ 1.10× raw and ≤ 0.75× official
 *   stream()             ≤ 1.25× raw and ≤ 0.85× official
 *   invoke()             ≤ 1.15× raw (unary)
 * Rows = workload × contender; ratios are instructions per event (or call) over raw's / official's
 * in the same workload. A ratio that uses a cell from an earlier run is marked †.
 */
import { fmt } from './stats.mjs';
import { CONTENDER_NAMES, WORKLOADS, contendersOf } from './workload-defs.mjs';
import { renderRows } from './workloads-report.mjs';

/** The goals per contender key: maximum ratio vs raw and vs official (undefined: no goal). */
export const GOALS = {
  ssm: { raw: 1.1, official: 0.75 },
  stream: { raw: 1.25, official: 0.85 },
  invoke: { raw: 1.15 },
};

/** `{ value, stale }` of cell/base per-unit instructions, or undefined when either is missing. */
function ratioOf(cell, base, staleBase) {
  if (!Number.isFinite(cell?.perUnit) || !Number.isFinite(base?.perUnit) || base.perUnit <= 0) return undefined;
  return { value: cell.perUnit / base.perUnit, stale: staleBase };
}

function showRatio(r) {
  return r ? `${r.value.toFixed(2)}x${r.stale ? '†' : ''}` : '-';
}

/** PASS / FAIL for one ratio against a limit ('' when there is no goal or no ratio). */
function verdict(r, limit) {
  if (limit === undefined) return '';
  if (!r) return 'n/a';
  return `${r.value <= limit ? 'PASS' : 'FAIL'} (≤${limit})`;
}

/** The printed table for `cells` ({ [workload]: { [contender]: cell } }); `fresh` holds `workload/contender` measured now. */
export function renderInstructions(cells, fresh) {
  const rows = [['workload', 'contender', 'instr/event', 'vs raw', 'vs official', 'vs raw iterator', 'goal vs raw', 'goal vs official', 'reads/event']];
  for (const w of WORKLOADS) {
    const row = cells[w.key];
    if (!row) continue;
    const shown = contendersOf(w, { iteratorFloor: true }).filter((k) => row[k] && (fresh.size === 0 || [...fresh].some((f) => f.startsWith(`${w.key}/`))));
    for (const key of shown) {
      const c = row[key];
      const stale = (k) => !fresh.has(`${w.key}/${k}`) || !fresh.has(`${w.key}/${key}`);
      const vsRaw = key === 'raw' ? undefined : ratioOf(c, row.raw, stale('raw'));
      const vsOff = key === 'official' || key.startsWith('raw') ? undefined : ratioOf(c, row.official, stale('official'));
      const vsIter = GOALS[key] && row.rawIter ? ratioOf(c, row.rawIter, stale('rawIter')) : undefined;
      const goal = GOALS[key] ?? {};
      const mark = fresh.has(`${w.key}/${key}`) ? '' : ' (earlier run)';
      rows.push([
        w.label + (w.kind === 'unary' ? ' [per call]' : ''),
        CONTENDER_NAMES[key] + mark,
        c.error ? `ERROR` : fmt(c.perUnit),
        showRatio(vsRaw),
        showRatio(vsOff),
        showRatio(vsIter),
        verdict(vsRaw, goal.raw),
        verdict(vsOff, goal.official),
        w.kind === 'stream' && Number.isFinite(c.large?.readsPerUnit) ? c.large.readsPerUnit.toFixed(2) : '',
      ]);
    }
  }
  const errors = Object.entries(cells).flatMap(([wk, row]) => Object.entries(row).filter(([, c]) => c.error).map(([k, c]) => `  (!) ${wk} / ${k}: ${c.error}`));
  const notes = [
    'instr/event = (instructions of the large run − of the small run) / extra events (unary: calls), client process only, under callgrind.',
    '† = ratio against a cell measured in an earlier run (bench/instructions.json). reads/event: read syscalls per event in the large run (1.00 = one frame per read).',
  ];
  return [renderRows(rows), ...errors, ...notes].join('\n');
}
