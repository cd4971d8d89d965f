/**
 * Cold start (issue 26): for ours (`a2a-resilient`), the official `@a2a-js/sdk/client` and raw
 * `undici`, each in a FRESH Node process per sample (pinned to the client core): the import time of
 * the entry and RSS after it, and process start to the first `sendMessage` answer on loopback (card
 * fetch included) with RSS then; plus `a2a-resilient --version` (spawn to exit, wall clock).
 * Contenders alternate within each repetition; medians and ratios per repetition (vs official).
 * Standalone: `node bench/cold-start.mjs [reps]` (also the `coldstart` section of `npm run bench`).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLIENT_CPU, pinnedCommand, pinningNote } from './pinning.mjs';
import { startAgents } from './server-control.mjs';
import { fmt, median, pairedRatio } from './stats.mjs';

const run = promisify(execFile);
const childPath = fileURLToPath(new URL('./cold-start-child.mjs', import.meta.url));
const cliPath = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const CONTENDERS = ['ours', 'official', 'raw'];

async function sample(contender, mode, baseUrl) {
  const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, [childPath, contender, mode, ...(baseUrl ? [baseUrl] : [])]);
  const { stdout } = await run(cmd, args, { timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').pop());
}

async function versionMs() {
  const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, [cliPath, '--version']);
  const t0 = performance.now();
  await run(cmd, args, { timeout: 30_000 });
  return performance.now() - t0;
}

/** Spawn to exit of `node -e 0` (Node's own start-up), the floor under every figure here. */
async function nodeMs() {
  const [cmd, args] = pinnedCommand(CLIENT_CPU, process.execPath, ['-e', '0']);
  const t0 = performance.now();
  await run(cmd, args, { timeout: 30_000 });
  return performance.now() - t0;
}

/** Runs the section; resolves `{ reps, rows, version, node, note }`. */
export async function coldStartSection({ reps = 7, log = () => {} } = {}) {
  const agents = await startAgents(['ok']);
  const url = agents.urls[0];
  const data = Object.fromEntries(CONTENDERS.map((c) => [c, { importMs: [], importRss: [], firstMs: [], firstRss: [] }]));
  const version = [];
  const node = [];
  try {
    for (let i = 0; i < reps + 1; i++) {
      // The first round warms the disk cache and the server; it is not recorded.
      const order = i === 0 ? CONTENDERS : CONTENDERS.map((_, k) => CONTENDERS[(k + i) % CONTENDERS.length]);
      for (const c of order) {
        const imp = await sample(c, 'import');
        const first = await sample(c, 'first', url);
        if (i === 0) continue;
        data[c].importMs.push(imp.importMs);
        data[c].importRss.push(imp.rss);
        data[c].firstMs.push(first.firstMs);
        data[c].firstRss.push(first.rss);
      }
      const v = await versionMs();
      const n = await nodeMs();
      if (i > 0) {
        version.push(v);
        node.push(n);
      }
      log(`  coldstart rep ${i}/${reps}`);
    }
  } finally {
    await agents.stop();
  }
  const rows = {};
  for (const c of CONTENDERS) {
    const d = data[c];
    rows[c] = {
      importMs: median(d.importMs),
      importRss: median(d.importRss),
      firstMs: median(d.firstMs),
      firstRss: median(d.firstRss),
      importVsOfficial: pairedRatio(d.importMs, data.official.importMs)?.median,
      firstVsOfficial: pairedRatio(d.firstMs, data.official.firstMs)?.median,
      rssOverOfficial: median(d.importRss.map((r, k) => r - data.official.importRss[k])),
      samples: d,
    };
  }
  return { reps, rows, versionMs: median(version), nodeMs: median(node), versionSamples: version, note: pinningNote() };
}

/** The section as a markdown table. */
export function renderColdStart(cs) {
  if (!cs?.rows) return `cold start: ${cs?.error ?? 'not run'}`;
  const names = { ours: 'a2a-resilient', official: '@a2a-js/sdk/client (official)', raw: 'raw undici' };
  const lines = [
    `### Cold start (fresh process per sample, median of ${cs.reps}; ratios paired per repetition)`,
    '',
    '| client | import | vs official | RSS after import | vs official | start → first answer | vs official | RSS then |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const [k, r] of Object.entries(cs.rows)) {
    lines.push(
      `| ${names[k]} | ${fmt(r.importMs, 1)} ms | ${fmt(r.importVsOfficial, 2)}x | ${fmt(r.importRss, 1)} MB | ${r.rssOverOfficial >= 0 ? '+' : ''}${fmt(r.rssOverOfficial, 1)} MB | ${fmt(r.firstMs, 0)} ms | ${fmt(r.firstVsOfficial, 2)}x | ${fmt(r.firstRss, 1)} MB |`,
    );
  }
  lines.push('', `\`a2a-resilient --version\`: ${fmt(cs.versionMs, 0)} ms spawn to exit (\`node -e 0\`: ${fmt(cs.nodeMs, 0)} ms). ${cs.note}.`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reps = Number(process.argv[2]) || 7;
  const cs = await coldStartSection({ reps, log: (m) => process.stderr.write(`${m}\n`) });
  process.stdout.write(`${renderColdStart(cs)}\n`);
}
