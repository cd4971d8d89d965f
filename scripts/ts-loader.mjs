// Module hooks of scripts/ts-hooks.mjs: a `.ts` file is loaded as an ES module with its types stripped by esbuild.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/** Loads `.ts` files as ES modules (types stripped); everything else as Node would. */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path, 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20', sourcefile: path, sourcemap: 'inline' });
  return { format: 'module', source: code, shortCircuit: true };
}
