/**
 * Browser bundle size (issue 25): `A2AClient` (with its event API: `stream`, `invoke`) as a user's
 * bundler builds it from the package (`import { A2AClient } from 'a2a-resilient'`, resolved through the
 * `exports` map with the `browser` condition, so dist/web), beside the official `@a2a-js/sdk/client`
 * `ClientFactory`, both with `esbuild --bundle --minify --format=esm --platform=browser`; sizes
 * minified and gzipped (level 9). Three views of ours: one file (what the official is too), and with
 * code splitting the initial chunk (what a page loads before the first call) and the total (every
 * chunk, the lazily loaded card-signature code included). Then what the bytes are, by package and, for
 * ours, by source directory (attributed on a build of the sources with the web platform, as
 * scripts/bundle.mjs makes dist/web), and zod's share measured three ways (what ships: `zod/mini`).
 * Standalone: `node bench/bundle-size.mjs` (`npm run bench:bundle`; also the `bundle` section of
 * `npm run bench`). Expects a build (`npm run build`).
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { webSwaps } from '../scripts/web-swaps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const OURS = "export { A2AClient } from 'a2a-resilient';";
const OFFICIAL = "export { ClientFactory } from '@a2a-js/sdk/client';";

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** esbuild as the issue says, on an entry text resolved from the package root (no tsconfig paths: the exports map decides). */
async function bundle(contents, extra = {}, loader = 'js') {
  return build({
    stdin: { contents, resolveDir: root, loader },
    tsconfigRaw: '{}',
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...extra,
  });
}

/** One file: minified and gzipped bytes, and the minified bytes per package (`ours` for a2a-resilient). */
async function single(contents) {
  const r = await bundle(contents, { outfile: 'out.js' });
  const file = r.outputFiles[0].contents;
  const byPackage = {};
  for (const [input, { bytesInOutput }] of Object.entries(Object.values(r.metafile.outputs)[0].inputs)) {
    const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    const name = m ? m[1] : input.startsWith('dist/') ? 'a2a-resilient' : input;
    if (bytesInOutput > 0) byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
  }
  return { minified: file.length, gzipped: gz(file), byPackage };
}

/** With code splitting: the entry chunk and what it imports statically (initial), and every chunk (total). */
async function split(contents) {
  const r = await bundle(contents, { splitting: true, outdir: 'out', entryNames: 'entry' });
  const outputs = r.metafile.outputs;
  const files = new Map(r.outputFiles.map((f) => [f.path.slice(root.length).replace(/^\/+/, ''), f.contents]));
  const entry = Object.keys(outputs).find((k) => outputs[k].entryPoint !== undefined);
  const initial = new Set();
  const visit = (k) => {
    if (initial.has(k)) return;
    initial.add(k);
    for (const i of outputs[k].imports) if (i.kind === 'import-statement' && outputs[i.path]) visit(i.path);
  };
  visit(entry);
  const size = (keys) => {
    let minified = 0;
    let gzipped = 0;
    for (const k of keys) {
      const bytes = files.get(k) ?? new Uint8Array();
      minified += bytes.length;
      gzipped += gz(bytes);
    }
    return { minified, gzipped, chunks: keys.length };
  };
  return { initial: size([...initial]), total: size(Object.keys(outputs)) };
}

/** Our minified bytes by source directory: the sources built with the web platform (as dist/web is). */
async function oursByDirectory() {
  const r = await bundle(
    "export { A2AClient } from './src/index.ts';",
    { outfile: 'out.js', plugins: [webSwaps], define: { A2A_RESILIENT_VERSION: '"0"', 'globalThis.process': 'undefined' } },
    'ts',
  );
  const dirs = {};
  for (const [input, { bytesInOutput }] of Object.entries(Object.values(r.metafile.outputs)[0].inputs)) {
    if (input.includes('node_modules') || bytesInOutput === 0) continue;
    const dir = input.split('/').slice(0, -1).join('/');
    dirs[dir] = (dirs[dir] ?? 0) + bytesInOutput;
  }
  return Object.fromEntries(Object.entries(dirs).sort((a, b) => b[1] - a[1]));
}

/** The zod members the package uses (src/util/zod-subset.ts), as one import list. */
function zodMembers() {
  const text = readFileSync(join(root, 'src/util/zod-subset.ts'), 'utf8');
  return text.match(/import \{([^}]+)\} from 'zod\/mini'/)[1].replace(/\s+/g, ' ').trim();
}

/** zod's share three ways: classic zod's whole `z`, classic's same members, and what ships (those members of `zod/mini` with the English messages). */
async function zodShare() {
  const members = zodMembers();
  const names = members.split(',').map((m) => m.trim().split(/\s+as\s+/).pop()).filter(Boolean);
  const of = async (contents) => {
    const r = await bundle(contents, { outfile: 'out.js' });
    return { minified: r.outputFiles[0].contents.length, gzipped: gz(r.outputFiles[0].contents) };
  };
  return {
    namespace: await of("export { z } from 'zod';"),
    classicMembers: await of(`import { ${members} } from 'zod'; export const z = { ${names.join(', ')} };`),
    shipped: await of(`import { ${members} } from 'zod/mini'; import { en } from 'zod/locales'; export const z = { ${names.join(', ')}, en };`),
  };
}

/** The section: sizes, ratios against the official client, and the breakdowns. */
export async function bundleSizeSection() {
  const ours = await single(OURS);
  const official = await single(OFFICIAL);
  const oursSplit = await split(OURS);
  const officialSplit = await split(OFFICIAL);
  return {
    note: 'esbuild --bundle --minify --format=esm --platform=browser (condition browser); gzip -9',
    esbuild: JSON.parse(readFileSync(join(root, 'node_modules/esbuild/package.json'), 'utf8')).version,
    ours,
    official,
    oursSplit,
    officialSplit,
    ratioGzipped: ours.gzipped / official.gzipped,
    ratioInitialGzipped: oursSplit.initial.gzipped / officialSplit.initial.gzipped,
    oursByDirectory: await oursByDirectory(),
    zod: await zodShare(),
  };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Markdown for the section. */
export function renderBundleSize(s) {
  const out = ['### Browser bundle size (esbuild, minified; gzip -9)', '', '| bundle | minified | gzipped | vs official (gz) |', '| --- | ---: | ---: | ---: |'];
  out.push(`| a2a-resilient \`A2AClient\`, one file | ${kb(s.ours.minified)} | ${kb(s.ours.gzipped)} (${s.ours.gzipped} B) | ${s.ratioGzipped.toFixed(2)}x |`);
  out.push(`| a2a-resilient, split: initial (${s.oursSplit.initial.chunks} chunks) | ${kb(s.oursSplit.initial.minified)} | ${kb(s.oursSplit.initial.gzipped)} | ${s.ratioInitialGzipped.toFixed(2)}x |`);
  out.push(`| a2a-resilient, split: total (${s.oursSplit.total.chunks} chunks) | ${kb(s.oursSplit.total.minified)} | ${kb(s.oursSplit.total.gzipped)} | |`);
  out.push(`| @a2a-js/sdk/client \`ClientFactory\`, one file | ${kb(s.official.minified)} | ${kb(s.official.gzipped)} (${s.official.gzipped} B) | 1.00x |`);
  out.push('', 'Minified bytes by package: ours ' + fmtParts(s.ours.byPackage) + '; official ' + fmtParts(s.official.byPackage) + '.');
  out.push('', 'a2a-resilient\'s own code by directory (minified): ' + fmtParts(s.oursByDirectory) + '.');
  const z = s.zod;
  out.push('', `zod (gzipped): what ships, the members the schemas use from \`zod/mini\` with the English messages, ${kb(z.shipped.gzipped)}; the same members of classic zod ${kb(z.classicMembers.gzipped)}; classic zod's whole \`z\` ${kb(z.namespace.gzipped)}.`);
  return out.join('\n');
}

function fmtParts(parts) {
  return Object.entries(parts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${kb(v)}`)
    .join(', ');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const section = await bundleSizeSection();
  process.stdout.write(`${renderBundleSize(section)}\n`);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(section, null, 2)}\n`);
}
