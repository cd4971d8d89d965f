// The frameworks are optional peers: only their own entry may import them, so an app without `ai` or
// `@langchain/core` never loads either through the main entry, the core, or the other framework's entry.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] ?? '');
}

const AI = /^ai(\/|$)/;
const LANGCHAIN = /^@langchain\//;

describe('framework imports stay in their own entry', () => {
  const files = sources(src).map((f) => ({ path: relative(src, f).replaceAll('\\', '/'), imports: specifiers(f) }));

  it('`ai` is imported only under src/ai-sdk/, `@langchain/*` only under src/langchain/', () => {
    const misplaced = files.flatMap((f) =>
      f.imports.filter((s) => (AI.test(s) && !f.path.startsWith('ai-sdk/')) || (LANGCHAIN.test(s) && !f.path.startsWith('langchain/'))).map((s) => `${f.path} imports ${s}`),
    );
    expect(misplaced).toEqual([]);
  });

  it('neither entry imports the other, and nothing outside them imports either', () => {
    const crossing = files.flatMap((f) =>
      f.imports
        .filter((s) => (/\/ai-sdk\//.test(s) && !f.path.startsWith('ai-sdk/')) || (/\/langchain\//.test(s) && !f.path.startsWith('langchain/')))
        .map((s) => `${f.path} imports ${s}`),
    );
    expect(crossing).toEqual([]);
  });

  it('the core (src/agent-tool/) imports nothing from outside the package but its own dependencies', () => {
    const core = files.filter((f) => f.path.startsWith('agent-tool/'));
    expect(core.length).toBeGreaterThan(3);
    expect(core.flatMap((f) => f.imports.filter((s) => !s.startsWith('.')).map((s) => `${f.path} imports ${s}`))).toEqual([]);
  });
});
