// `a2a-resilient send --continue <file>`: a conversation whose state lives in a file between runs.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../src/cli/cli.js';
import type { CommandIO } from '../../src/cli/io.js';
import { mockAgent, replyTask, stream, type MockAgent, type MockServer } from '../../mocks/index.js';

function capture(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l) };
}

const Sent = z.object({
  message: z.object({ contextId: z.string().optional(), taskId: z.string().optional(), referenceTaskIds: z.array(z.string()).optional() }),
});
const Saved = z.strictObject({ version: z.literal(1), contextId: z.string().optional(), lastTaskId: z.string().optional(), state: z.string().optional() });

let dir: string;
let server: MockServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a2a-continue-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function serve(configure: (agent: MockAgent) => void): Promise<{ url: string; agent: MockAgent }> {
  const agent = mockAgent({ name: 'continue-agent', version: '0.3', binding: 'JSONRPC' });
  configure(agent);
  server = await agent.listen();
  return { url: server.url, agent };
}

const sentIds = (agent: MockAgent) => agent.calls.filter((c) => c.method.startsWith('send')).map((c) => Sent.parse(c.params).message);
const saved = async (file: string) => Saved.parse(JSON.parse(await readFile(file, 'utf8')));

describe('send --continue <file>', () => {
  it('starts a conversation in a new file, continues the open task from it, then references the finished task', async () => {
    const { url, agent } = await serve((a) =>
      a.reply(
        replyTask({ state: 'input-required', statusMessage: 'Where to?' }),
        stream([{ status: 'working' }, { status: 'completed', text: 'Booked.' }]),
        replyTask({ state: 'completed', artifacts: ['Hotel booked.'] }),
      ),
    );
    const file = join(dir, 'chat.json');

    const first = capture();
    expect(await main(['send', url, 'Book a flight', '--continue', file], first)).toBe(0);
    expect(first.stdout.join('\n')).toContain('Where to?');
    const open = await saved(file);
    expect(open).toMatchObject({ version: 1, state: 'input-required' });

    const second = capture();
    expect(await main(['send', url, 'Paris', '--stream', '--continue', file, '--verbose'], second)).toBe(0);
    expect(second.stderr.join('\n')).toContain(`· conversation saved to ${file}: context ${open.contextId}, task ${open.lastTaskId} completed`);
    expect(await saved(file)).toEqual({ ...open, state: 'completed' });

    expect(await main(['send', url, 'And a hotel', '--continue', file], capture())).toBe(0);
    expect(sentIds(agent)).toEqual([
      {},
      { contextId: open.contextId, taskId: open.lastTaskId },
      { contextId: open.contextId, referenceTaskIds: [open.lastTaskId] },
    ]);
  });

  it.each([
    ['not JSON', '{"version": 1,', /not a saved conversation/],
    ['a foreign object', '{"taskId": "t-1"}', /not a saved conversation .*taskId/],
    ['a newer format', '{"version": 9}', /version 9 is not supported/],
  ])('a file holding %s is a usage error (exit 2), before anything is sent', async (_, content, message) => {
    const { url, agent } = await serve((a) => a.reply(replyTask()));
    const file = join(dir, 'bad.json');
    await writeFile(file, content);
    const io = capture();
    expect(await main(['send', url, 'hi', '--continue', file], io)).toBe(2);
    expect(io.stderr.join('\n')).toMatch(message);
    expect(agent.calls).toHaveLength(0);
    expect(await readFile(file, 'utf8')).toBe(content);
  });

  it('is in the usage text', async () => {
    const io = capture();
    expect(await main(['send', '--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain('--continue <file>');
  });
});
