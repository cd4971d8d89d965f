import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import type { CommandIO } from '../../src/cli/io.js';
import { failedTask, mockAgent, replyText, stream, type MockServer } from '../../mocks/index.js';
import { listenLoopback } from '../../mocks/node-bridge.js';

function capture(): CommandIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l) };
}

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(name: string, configure: (a: ReturnType<typeof mockAgent>) => void, version: '1.0' | '0.3' = '1.0') {
  const agent = mockAgent({ name, version, binding: 'JSONRPC', description: 'a test agent' });
  configure(agent);
  const server = await agent.listen();
  servers.push(server);
  return server.url;
}

describe('a2a-resilient CLI', () => {
  it('prints usage with --help (exit 0) and without a command (exit 2)', async () => {
    const io = capture();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain('Usage: a2a-resilient <command>');
    expect(await main([], capture())).toBe(2);
  });

  it.each([
    [['nope'], 'a2a-resilient: unknown command "nope"', 'a2a-resilient --help'],
    [['sned', 'http://127.0.0.1:1', 'hi'], 'a2a-resilient: unknown command "sned"; did you mean "send"?', 'a2a-resilient --help'],
    [['send', 'http://127.0.0.1:1'], 'a2a-resilient send: missing <text>', 'a2a-resilient send --help'],
    [['send'], 'a2a-resilient send: missing <url> and <text>', 'a2a-resilient send --help'],
    [['card'], 'a2a-resilient card: missing <url>', 'a2a-resilient card --help'],
    [['card', 'not-a-url'], 'a2a-resilient card: <url> "not-a-url" is not an http(s) URL (e.g. http://127.0.0.1:4000)', 'a2a-resilient card --help'],
    [['card', 'localhost:4000'], 'a2a-resilient card: <url> localhost:4000 is not an http(s) URL (e.g. http://127.0.0.1:4000)', 'a2a-resilient card --help'],
    // Shown without its credentials or query (they may be secrets).
    [['send', 'ftp://user:pw@example.com/agent?key=s3cret', 'hi'], 'a2a-resilient send: <url> ftp://example.com/agent is not an http(s) URL (e.g. http://127.0.0.1:4000)', 'a2a-resilient send --help'],
    [['send', 'http://127.0.0.1:1', 'hi', '--retries', 'many'], 'a2a-resilient send: --retries takes a whole number, got "many"', 'a2a-resilient send --help'],
    [['send', 'http://127.0.0.1:1', 'hi', '--retries', '-1'], 'a2a-resilient send: --retries takes a whole number, got "-1"', 'a2a-resilient send --help'],
    [['send', 'http://127.0.0.1:1', 'hi', '--strem'], 'a2a-resilient send: unknown option --strem; did you mean --stream?', 'a2a-resilient send --help'],
    [['send', 'http://127.0.0.1:1', 'hi', '--timeout'], 'a2a-resilient send: --timeout needs a value', 'a2a-resilient send --help'],
    [['send', 'http://127.0.0.1:1', 'hi', '--stream=yes'], 'a2a-resilient send: --stream takes no value', 'a2a-resilient send --help'],
    [['card', 'http://127.0.0.1:1', '--bogus'], 'a2a-resilient card: unknown option --bogus', 'a2a-resilient card --help'],
    [['card', 'http://127.0.0.1:1', '-x'], 'a2a-resilient card: unknown option -x', 'a2a-resilient card --help'],
    [['demo', 'extra'], 'a2a-resilient demo: unexpected argument: extra', 'a2a-resilient demo --help'],
  ])('rejects bad arguments %j with one line of our own, a pointer to --help and exit code 2', async (argv, message, help) => {
    const io = capture();
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr).toEqual([message, expect.stringContaining(`"${help}"`)]);
    expect(io.stdout).toEqual([]);
  });

  it('an option taking a value takes the next argument as it is, and accepts --name=value and -Hvalue', async () => {
    const io = capture();
    // Both are parsed (the values are wrong for --retries, which says so), not refused for their form.
    expect(await main(['send', 'http://127.0.0.1:1', 'hi', '--retries=-2'], io)).toBe(2);
    expect(io.stderr[0]).toBe('a2a-resilient send: --retries takes a whole number, got "-2"');
    const dashed = capture();
    expect(await main(['send', '--timeout', '--', 'http://127.0.0.1:1', 'hi'], dashed)).toBe(2);
    expect(dashed.stderr[0]).toBe('a2a-resilient send: --timeout takes a whole number, got "--"');
  });

  it('card --help lists every option card takes', async () => {
    const io = capture();
    expect(await main(['card', '--help'], io)).toBe(0);
    const help = io.stdout.join('\n');
    expect(help).toContain('Usage: a2a-resilient card <url> [options]');
    for (const option of ['--json', '--timeout <ms>', '--retries <n>', '--verbose', '-H, --header <h>', '-h, --help']) expect(help).toContain(option);
  });

  it('--version prints the version of the package.json it was installed with (exit 0)', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const io = capture();
      expect(await main([flag], io)).toBe(0);
      expect(io.stdout).toEqual([pkg.version]);
    }
  });

  it.each(['card', 'send', 'demo'])('%s --help prints its usage', async (command) => {
    const io = capture();
    expect(await main([command, '--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain(`Usage: a2a-resilient ${command}`);
  });

  it('card: describes the agent, its protocol and skills', async () => {
    const url = await serve('cli-card', () => undefined, '0.3');
    const io = capture();
    expect(await main(['card', url], io)).toBe(0);
    const out = io.stdout.join('\n');
    expect(out).toContain('cli-card');
    expect(out).toContain(`speaks A2A 0.3 over JSONRPC at ${url}`);
    expect(out).toMatch(/capabilities: .*streaming=true/);
  });

  it('card: an unreachable agent exits 1 with the error kind', async () => {
    const io = capture();
    expect(await main(['card', 'http://127.0.0.1:1'], io)).toBe(1);
    expect(io.stderr.join('\n')).toContain('kind=connection');
  });

  it('send: prints the answer and exits 0', async () => {
    const url = await serve('cli-send', (a) => a.on('sendMessage', replyText('pong')));
    const io = capture();
    expect(await main(['send', url, 'ping'], io)).toBe(0);
    expect(io.stdout).toEqual(['pong']);
  });

  it('send: a terminal error prints its structured fields and exits 1', async () => {
    const url = await serve('cli-fail', (a) =>
      a.on('sendMessage', failedTask({ error_type: 'flow_error', error_code: 40401, error_message: 'invoice not found' })),
    );
    const io = capture();
    expect(await main(['send', url, 'ping', '--retries', '0'], io)).toBe(1);
    expect(io.stderr.join('\n')).toContain('error: invoice not found');
    expect(io.stderr.join('\n')).toContain('type=flow_error code=40401');
  });

  it('send --stream --json: one JSON event per line as they arrive', async () => {
    const url = await serve('cli-stream', (a) =>
      a.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'hel' }, { artifact: 'lo', append: true }, { status: 'completed' }])),
    );
    const io = capture();
    expect(await main(['send', url, 'hi', '--stream', '--json'], io)).toBe(0);
    const events = io.stdout.map((l) => JSON.parse(l) as { object: string; text?: string; done: boolean });
    expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: 'hello' });
    expect(events.filter((e) => e.object === 'chat.completion.chunk').map((e) => e.text)).toEqual(['hel', 'lo']);
  });

  it('demo: runs the whole story against local mock agents and exits 0', async () => {
    const io = capture();
    expect(await main(['demo'], io)).toBe(0);
    const out = io.stdout.join('\n');
    expect(out).toContain('Round 1');
    expect(out).toMatch(/translator: attempt 1 failed — .*Retry-After.*retrying in 1000 ms/);
    expect(out).toContain('archive: circuit breaker OPEN');
    expect(out).toMatch(/failed +billing +invoice INV-7 not found\n +type=flow_error code=40401/);
    expect(out).toMatch(/Round 2[\s\S]*skipped archive/);
    // Round 1 shows the read timeouts that opened the archive's breaker, not the fail-fast that followed them.
    const round1 = out.split('Round 2')[0] ?? '';
    expect(round1).toMatch(/failed +archive +.*800 ms.*\n +kind=read-timeout on attempts 1 and 2, which opened its circuit breaker; attempt 3 was not sent \(type=circuit_open\)/);
    expect(round1).not.toMatch(/failed +archive +The agent's circuit breaker is open/);
    // Never claims a resent send is safe because of its message id (servers do not deduplicate by it).
    expect(out).not.toMatch(/safe: same message id/);
    expect(out).toMatch(/archive: attempt 1 failed — .*may have reached the agent.*retry\.ambiguous/);
  }, 20_000);

  it('demo: every line is stamped on one clock, so a round ends at or after the events it contains', async () => {
    const io = capture();
    expect(await main(['demo'], io)).toBe(0);
    const round1 = io.stdout.join('\n').split('Round 2')[0] ?? '';
    const stamps = [...round1.matchAll(/^ {2}\+ *(\d+)ms {2}(.*)$/gm)].map((m) => ({ at: Number(m[1]), line: m[2] ?? '' }));
    const done = stamps.find((s) => s.line.startsWith('round done'));
    expect(done).toBeDefined();
    const started = Number(/started at \+(\d+)ms/.exec(done?.line ?? '')?.[1]);
    const took = Number(/round done, (\d+) ms/.exec(done?.line ?? '')?.[1]);
    expect(started + took).toBe(done?.at);
    for (const event of stamps) expect(event.at).toBeLessThanOrEqual(done?.at ?? -1);
    expect(stamps.filter((s) => s.at >= started && s.at <= started + took).length).toBe(stamps.length);
  }, 20_000);

  describe('--header: sent on every request, never printed', () => {
    const token = 'tok-"s3cr3t"\\value';
    /** An agent that echoes the request headers everywhere: in its card, and in the JSON-RPC error of every call. */
    async function echoingAgent(): Promise<{ url: string; seen: string[] }> {
      const seen: string[] = [];
      const server = await listenLoopback((req, res) => {
        const auth = req.headers.authorization ?? '';
        seen.push(auth);
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ name: `echo ${auth}`, description: `you sent ${auth}`, version: '1', url: `http://${req.headers.host}/a2a`, protocolVersion: '0.3.0', capabilities: { streaming: true }, defaultInputModes: [], defaultOutputModes: [], skills: [{ id: auth, name: auth, description: auth, tags: [] }] }));
          return;
        }
        let body = '';
        req.on('data', (c: Buffer) => (body += String(c)));
        req.on('end', () => {
          const { id } = JSON.parse(body) as { id: number };
          res.writeHead(200, { 'content-type': req.headers.accept?.includes('event-stream') ? 'text/event-stream' : 'application/json', 'x-echo': auth });
          const error = { code: -32001, message: `task not found for ${auth}`, data: { authorization: auth } };
          res.end(req.headers.accept?.includes('event-stream') ? `event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n` : JSON.stringify({ jsonrpc: '2.0', id, error }));
        });
      });
      servers.push({ url: server.url, close: server.close } as MockServer);
      return { url: server.url, seen };
    }

    it.each([
      ['send', []],
      ['send', ['--json']],
      ['send', ['--stream']],
      ['send', ['--stream', '--json']],
      ['card', []],
      ['card', ['--json']],
    ] as const)('%s %j', async (command, flags) => {
      const { url, seen } = await echoingAgent();
      const io = capture();
      const argv = command === 'send' ? ['send', url, 'hi', ...flags] : ['card', url, ...flags];
      const code = await main([...argv, '-H', `Authorization: Bearer ${token}`, '--header', 'X-Team: payments'], io);
      const printed = [...io.stdout, ...io.stderr].join('\n');
      expect(seen).toContain(`Bearer ${token}`);
      expect(code).toBe(command === 'send' ? 1 : 0);
      for (const form of [token, JSON.stringify(token).slice(1, -1)]) expect(printed).not.toContain(form);
      expect(printed).toContain('[REDACTED]');
    });

    it('a malformed --header is a usage error that does not repeat its value', async () => {
      const io = capture();
      expect(await main(['send', 'http://127.0.0.1:1', 'hi', '--header', `no-colon-${token}`], io)).toBe(2);
      expect(io.stderr.join('\n')).toContain('--header #1 is not "Name: value"');
      expect(io.stderr.join('\n')).not.toContain(token);
    });
  });
});
