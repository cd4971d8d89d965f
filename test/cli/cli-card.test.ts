/**
 * `card` against real loopback ports: a refused connection is retried as `send` retries it (the same
 * attempts, `--retries` the same option), so an agent that comes up a moment late is still described.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import type { CommandIO } from '../../src/cli/io.js';

/** A CommandIO that records lines, and calls `onErr` with each stderr line. */
function capture(onErr: (line: string) => void = () => undefined): { io: CommandIO; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CommandIO = { out: (l) => stdout.push(l), err: (l) => (stderr.push(l), onErr(l)) };
  return { io, stdout, stderr };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback port nothing listens on (it was free a moment ago): connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts serving a v0.3 agent card on `port` (nothing else: `card` needs nothing else). */
async function serveCardOn(port: number): Promise<void> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'late-agent', description: 'listens late', version: '1', url: `http://${req.headers.host}/a2a`, protocolVersion: '0.3.0', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}

/** The `--verbose` lines about attempts: each retry, and the give-up. */
const attemptLines = (stderr: string[]): string[] => stderr.filter((l) => /^· (retry|give-up):/.test(l));

describe('card retries a refused connection like send', () => {
  it('three attempts by default, as send makes, then exit 1 with kind=connection', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const card = capture();
    expect(await main(['card', url, '--verbose'], card.io)).toBe(1);
    const send = capture();
    expect(await main(['send', url, 'hi', '--verbose'], send.io)).toBe(1);
    for (const { stderr } of [card, send]) {
      const lines = attemptLines(stderr);
      expect(lines.filter((l) => l.startsWith('· retry: getAgentCard attempt') && l.includes('[connection]'))).toHaveLength(2);
      expect(lines.at(-1)).toMatch(/^· give-up: getAgentCard after 3 attempts .*\[connection\]/);
      expect(stderr.join('\n')).toContain('kind=connection');
    }
  });

  it('--retries sets how many: 0 is one attempt', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const c = capture();
    expect(await main(['card', url, '--verbose', '--retries', '0'], c.io)).toBe(1);
    expect(attemptLines(c.stderr)).toEqual([expect.stringMatching(/^· give-up: getAgentCard after 1 attempt .*\[connection\]/)]);
  });

  it('an agent that starts listening after the first refusal is described (exit 0)', async () => {
    const port = await closedPort();
    let started: Promise<void> | undefined;
    const c = capture((line) => {
      if (line.startsWith('· retry:')) started ??= serveCardOn(port);
    });
    expect(await main(['card', `http://127.0.0.1:${port}`, '--verbose', '--retries', '4'], c.io)).toBe(0);
    await started;
    expect(c.stderr.join('\n')).toContain('· retry: getAgentCard attempt 1 failed [connection]');
    expect(c.stdout.join('\n')).toContain('late-agent');
  });
});
