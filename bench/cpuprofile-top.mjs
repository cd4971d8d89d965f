/**
 * Prints the top functions by self time of a V8 .cpuprofile: `node bench/cpuprofile-top.mjs <file> [top]`.
 * Paths are shown relative to the repository; node internals as `node:<file>`.
 */
import { readFile } from 'node:fs/promises';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/cpuprofile-top.mjs <file.cpuprofile> [top]');
  process.exit(1);
}
const profile = JSON.parse(await readFile(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas ?? [];
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  self.set(node.id, (self.get(node.id) ?? 0) + (dt[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const agg = new Map();
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  const where = cf.url.replace(/^file:\/\/.*?\/work\/main\//, '').replace(/^node:/, 'node:') || '(native)';
  const key = `${where}:${cf.functionName || '(anonymous)'}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  agg.set(key, (agg.get(key) ?? 0) + us);
}
const rows = [...agg].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg) || 25);
for (const [key, us] of rows) console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
