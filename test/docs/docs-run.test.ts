// Every `ts` block of the README and docs/ runs as written: each is a reader's program, run in its own Node
// process (test/docs/run-block.mjs) against local mock agents that stand in for the names the docs take as given
// (a connected `client`, an `agentUrl`, a `taskId`, …). A `// prints: …` comment (anywhere in a line comment) is checked
// against what the block printed (`…` stands for anything). A block that cannot run here (it needs a proxy, certificates, a Redis
// server, a signed card) is marked ` ```ts fragment ` and links, right after it, the runnable program that shows
// the same thing in full (an examples/ file or a test), which this suite runs. A block that shows an examples/
// file is that file (docs-code.test.ts) and runs with test/examples.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, type CodeBlock } from './markdown-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const blocks: CodeBlock[] = pages.flatMap((page) => codeBlocks(page, readFileSync(join(root, page), 'utf8'))).filter((b) => b.lang === 'ts' && b.include === undefined);
const runnable = blocks.filter((b) => !b.flags.includes('fragment'));
const fragments = blocks.filter((b) => b.flags.includes('fragment'));
const runDir = join(root, 'test', 'docs', '.run');

/** What a block says it prints: each `// prints: …` comment, split at `…` into pieces that must appear in order. */
function printed(code: string): string[][] {
  return [...code.matchAll(/\/\/.*?\bprints: (.+)$/gm)].map((m) => (m[1] ?? '').trim().split('…').map((s) => s.trim()).filter(Boolean));
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBlock(block: CodeBlock): Promise<Run> {
  const file = join(runDir, `${block.page.replace(/[/.]/g, '_')}_${block.line}.ts`);
  writeFileSync(file, `${block.code}\n`);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'test/docs/run-block.mjs', file], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('code blocks of the README and docs/ run as written', () => {
  mkdirSync(runDir, { recursive: true });
  afterAll(() => rmSync(runDir, { recursive: true, force: true }));

  it('finds the runnable blocks and the fragments', () => {
    expect(runnable.length).toBeGreaterThan(20);
  });

  it('a block that runs names no host but the loopback (the reader\'s names stand for addresses)', () => {
    for (const block of runnable) {
      const code = block.code.replace(/\/\/.*$/gm, '');
      const hosts = [...code.matchAll(/[a-z]+:\/\/([^/:'"`\s]+)/g)].map((m) => m[1] ?? '').filter((h) => h !== '127.0.0.1' && h !== 'localhost' && h !== '[::1]');
      expect(hosts, `${block.page}:${block.line}`).toEqual([]);
    }
  });

  it('every fragment links, right after it, a runnable program that exists (an examples/ file or a test)', () => {
    for (const block of fragments) {
      const links = [...block.after.matchAll(/\]\((?:\.\.\/)?((?:examples|test)\/[^)#\s]+)/g)].map((m) => m[1] ?? '');
      expect(links.length, `${block.page}:${block.line}: a fragment must link its runnable program just after the block`).toBeGreaterThan(0);
      for (const link of links) expect(existsSync(join(root, link)), `${block.page}:${block.line} links ${link}`).toBe(true);
    }
  });

  // Two at a time: each block is a process of its own (startup, imports, a mock agent).
  const results = new Map<CodeBlock, Promise<Run>>();
  let queue: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  runnable.forEach((block, i) => {
    const lane = i % 2;
    const result = (queue[lane] ?? Promise.resolve()).then(() => runBlock(block));
    queue[lane] = result;
    results.set(block, result);
  });

  for (const block of runnable) {
    it(`${block.page}:${block.line} runs, exits on its own, and prints what it says`, async () => {
      const run = await (results.get(block) as Promise<Run>);
      expect(run.code, `${block.page}:${block.line} failed:\n${run.stderr}`).toBe(0);
      for (const pieces of printed(block.code)) {
        let from = 0;
        for (const piece of pieces) {
          const at = run.stdout.indexOf(piece, from);
          expect(at, `${block.page}:${block.line} should print "${piece}"; printed:\n${run.stdout}`).toBeGreaterThanOrEqual(0);
          from = at + piece.length;
        }
      }
    }, 120_000);
  }
  queue = [];
});
