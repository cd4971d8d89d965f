// The docs cannot drift from the code: every `ts` block of the README and docs/ compiles against the built
// package's types, every other block says what it is (`sh`, `text`, `json`), and a block that shows an
// examples/ file (`<!-- include: examples/x.ts -->`) is that file, which test/examples runs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileBlocks, type BlockError } from './compile-blocks.js';
import { codeBlocks, type CodeBlock } from './markdown-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const blocks: CodeBlock[] = pages.flatMap((page) => codeBlocks(page, readFileSync(join(root, page), 'utf8')));
const NOT_COMPILED = new Set(['sh', 'text', 'json']);

// A page the test makes up, with two mistakes a snippet can make: the checker must report both, at their lines.
const PROBE = [
  '# probe',
  '',
  '```ts',
  "import { A2AClient } from 'a2a-resilient';",
  "const c = await A2AClient.connect(agentUrl, { timeouts: { totalMS: 1_000 } });",
  "await c.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });",
  "await c.sendMesage({ message: { parts: [] } });",
  '```',
].join('\n');

describe('code blocks in the README and docs/', () => {
  let errors: BlockError[] = [];

  beforeAll(() => {
    if (!existsSync(join(root, 'dist/src/index.d.ts'))) throw new Error('no dist/: run `npm run build` first (npm test does)');
    const compiled = blocks.filter((b) => b.lang === 'ts' && b.include === undefined);
    errors = compileBlocks(root, [...compiled, ...codeBlocks('probe.md', PROBE)]);
  }, 60_000);

  it('finds the pages and their blocks', () => {
    expect(pages).toContain('docs/errors-and-retries.md');
    expect(blocks.filter((b) => b.lang === 'ts').length).toBeGreaterThan(15);
  });

  it('every `ts` block compiles against the package types (each a module of a project that installed it)', () => {
    expect(errors.filter((e) => !e.at.startsWith('probe.md')).map((e) => `${e.at}: ${e.message}`)).toEqual([]);
  });

  it('a broken block fails: a misspelt option and a misspelt method are reported at their lines', () => {
    const probe = errors.filter((e) => e.at.startsWith('probe.md'));
    expect(probe.map((e) => e.at)).toEqual(['probe.md:5', 'probe.md:7']);
    expect(probe[0]?.message).toContain("'totalMS' does not exist");
    expect(probe[1]?.message).toContain("'sendMesage' does not exist");
  });

  it('every other block is marked as what it is (sh, text, json): none is left unchecked by accident', () => {
    const unmarked = blocks.filter((b) => b.lang !== 'ts' && !NOT_COMPILED.has(b.lang));
    expect(unmarked.map((b) => `${b.page}:${b.line} (${b.lang || 'no language'})`)).toEqual([]);
    for (const b of blocks.filter((x) => x.lang === 'json')) expect(() => JSON.parse(b.code) as unknown, `${b.page}:${b.line}`).not.toThrow();
  });

  it('a block that shows an examples/ file is that file, word for word (its header comment aside)', () => {
    const included = blocks.filter((b) => b.include !== undefined);
    expect(included.map((b) => b.include)).toContain('examples/quick-start.ts');
    for (const block of included) {
      const source = readFileSync(join(root, block.include ?? ''), 'utf8').replace(/^\/\*\*[\s\S]*?\*\/\n/, '');
      expect(`${block.code}\n`, `${block.page}:${block.line} shows ${block.include}`).toBe(source);
    }
  });
});
