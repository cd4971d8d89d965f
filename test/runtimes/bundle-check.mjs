// What a user's bundle of the smoke entry holds (esbuild's metafile): for workerd and the browser,
// no undici and no Node built-in may be in it; its size is reported.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/**
 * A smoke result for the bundle `outfile` built with `metafile`: fails when an input comes from undici
 * or an import left outside the bundle is a Node built-in.
 */
export function bundleResult(metafile, outfile) {
  const inputs = Object.keys(metafile.inputs);
  const undici = inputs.filter((p) => p.includes('node_modules/undici/'));
  const imports = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  const bytes = readFileSync(outfile);
  const size = `${(bytes.length / 1024).toFixed(0)} KB, ${(gzipSync(bytes).length / 1024).toFixed(1)} KB gzipped (not minified, with the smoke test)`;
  const ok = undici.length === 0 && imports.length === 0;
  return { name: 'bundle', ok, ms: 0, detail: ok ? `no undici, no Node built-in; ${size}` : `undici files: ${undici.length}, external imports: ${imports.join(', ')}` };
}
