/**
 * `a2a-resilient/push` is web-standard: nothing it loads (followed through every value import from
 * src/push/index.ts) is a `node:` module or undici, so `handleRequest` runs on any runtime. Node types
 * (`import type`) are allowed: they are erased.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const VALUE_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm;

function externalImports(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const external = new Map<string, string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(VALUE_IMPORT)) {
      const spec = match[1] as string;
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!external.has(spec)) external.set(spec, file.slice(root.length));
    }
  };
  walk(resolve(root, entry));
  return external;
}

describe('a2a-resilient/push module graph', () => {
  it('loads no node: module and no undici: only zod (mini, English messages) and jose', () => {
    expect([...externalImports('src/push/index.ts').keys()].sort()).toEqual(['jose', 'zod/locales', 'zod/mini']);
  });

  it('the walker sees node: imports where they are (it would catch one)', () => {
    expect([...externalImports('src/client/a2a-client.ts').keys()]).toEqual(expect.arrayContaining(['node:module']));
  });
});
