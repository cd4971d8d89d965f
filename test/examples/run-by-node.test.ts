// The examples run as a reader runs them, on the Node this suite runs on (CI: 20, 22 and 24):
// `npm run example examples/<name>.ts` — a child process whose TypeScript is stripped by scripts/ts-hooks.mjs.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

describe('npm run example (scripts/ts-hooks.mjs) on this Node', () => {
  it(`runs examples/quick-start.ts as a script on Node ${process.versions.node}: its printed lines as the README shows them`, async () => {
    const { stdout, stderr } = await run(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'examples/quick-start.ts'], { cwd: root, timeout: 30_000 });
    const lines = stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('chunk: '))).toEqual(['chunk: INV-7: €1,200, ', 'chunk: due 1 March']);
    expect(lines).toContain('answer: INV-7: €1,200, due 1 March');
    expect(lines).toContain('reply: message');
    expect(lines.filter((line) => /^(billing|search|ledger)[: ]/.test(line)).sort()).toEqual(['billing: hi there', 'ledger failed: LEDGER_LOCKED', 'search: Q3 revenue: €4.1M']);
    expect(stderr).toBe('');
  });

  it('an example that exports main() and runs it when started directly prints its result', async () => {
    const { stdout } = await run(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'examples/protocol-level.ts'], { cwd: root, timeout: 30_000 });
    expect(stdout.length).toBeGreaterThan(0);
    expect(() => JSON.parse(stdout) as unknown).not.toThrow();
  });
});
