/**
 * CLI options against real loopback mock agents: --verbose (resilience events on stderr, header
 * values hidden), --timeout, and the live progress line of streams — drawn on stderr only when it is
 * a terminal, never mixed into stdout (`--json` stays one JSON object per line).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import type { CommandIO } from '../../src/cli/io.js';
import { failFirst, hang, httpError, mockAgent, replyText, stream, type MockServer } from '../../mocks/index.js';

/** A CommandIO that records stdout and stderr lines and the raw progress writes (`drawn`). */
function capture(isTTY = false): { io: CommandIO; stdout: string[]; stderr: string[]; drawn: string[]; order: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const drawn: string[] = [];
  /** Everything written, in order: `out:…`, `err:…`, `status:…`. */
  const order: string[] = [];
  const io: CommandIO = {
    isTTY,
    out: (l) => (stdout.push(l), order.push(`out:${l}`)),
    err: (l) => (stderr.push(l), order.push(`err:${l}`)),
    status: (t) => (drawn.push(t), order.push(`status:${t}`)),
  };
  return { io, stdout, stderr, drawn, order };
}

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(configure: (a: ReturnType<typeof mockAgent>) => void, extra: Partial<Parameters<typeof mockAgent>[0]> = {}): Promise<string> {
  const agent = mockAgent({ name: `cli-${Math.random().toString(36).slice(2, 8)}`, version: '1.0', binding: 'JSONRPC', ...extra });
  configure(agent);
  const server = await agent.listen();
  servers.push(server);
  return server.url;
}

const steps = [{ status: 'working' as const }, { artifact: 'hel' }, { artifact: 'lo', append: true }, { status: 'completed' as const }];

describe('--verbose', () => {
  it('prints the agent, the header names (never values) and every retry with its reason and wait on stderr', async () => {
    const url = await serve((a) => a.on('sendMessage', failFirst(1, httpError(503, { retryAfter: 0 }), replyText('pong'))));
    const c = capture();
    expect(await main(['send', url, 'ping', '--verbose', '-H', 'Authorization: Bearer sekret-token-9'], c.io)).toBe(0);
    expect(c.stdout).toEqual(['pong']);
    const err = c.stderr.join('\n');
    expect(err).toContain(`· connecting to ${url} (headers: authorization: [hidden])`);
    expect(err).toMatch(/· agent "cli-\w+": A2A 1\.0 over JSONRPC at /);
    expect(err).toContain('· retry: sendMessage attempt 1 failed [http 503] (hint:delay(header:retry-after)); next attempt in 0 ms');
    expect(err).not.toContain('sekret-token-9');
  });

  it('card --verbose shows the give-up of a refused card fetch, and the card’s authentication schemes', async () => {
    const url = await serve(() => undefined, {
      card: (card) => ({ ...card, securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } }, sso: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://sso.example' } } } }),
    });
    const c = capture();
    expect(await main(['card', url, '--verbose'], c.io)).toBe(0);
    expect(c.stdout.join('\n')).toContain('authentication: key (apiKey in header "X-API-Key"), sso (openIdConnect)');
    expect(c.stderr.join('\n')).toContain('· fetching the agent card of');
  });
});

describe('--timeout', () => {
  it('bounds the whole call: a hanging agent ends in deadline-exceeded near the timeout', async () => {
    const url = await serve((a) => a.on('sendMessage', hang()));
    const c = capture();
    const started = performance.now();
    expect(await main(['send', url, 'ping', '--timeout', '300'], c.io)).toBe(1);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(c.stderr.join('\n')).toContain('code=deadline-exceeded');
  });

  it.each([
    [['--timeout', '0'], '--timeout must be more than 0 ms'],
    [['--timeout', 'soon'], '--timeout takes a whole number'],
    [['--timeout', '5', '--timeout-total', '6'], 'give one'],
  ])('%j is a usage error', async (flags, message) => {
    const c = capture();
    expect(await main(['send', 'http://127.0.0.1:1', 'hi', ...flags], c.io)).toBe(2);
    expect(c.stderr.join('\n')).toContain(message);
  });
});

describe('stream progress line', () => {
  it('on a terminal: drawn on stderr with the event count, erased before every stdout line and at the end', async () => {
    const url = await serve((a) => a.on('sendStreamingMessage', stream(steps, { gapMs: 20 })));
    const c = capture(true);
    expect(await main(['send', url, 'hi', '--stream'], c.io)).toBe(0);
    expect(c.stdout).toEqual(['hello']);
    for (const line of c.stdout) expect(line).not.toMatch(/[\r\x1b]/);
    expect(c.drawn.some((s) => /… cli-\w+: [1-9]\d* events?, \d+\.\d s$/.test(s))).toBe(true);
    expect(c.drawn.at(-1)).toBe('\r\x1b[2K');
    // Every line printed comes right after the progress line was erased, so none is printed over it.
    c.order.forEach((entry, i) => {
      if (entry.startsWith('out:')) expect(c.order[i - 1]).toBe('status:\r\x1b[2K');
    });
  });

  it('--json on a terminal: stdout is JSON lines only; the progress line stays on stderr', async () => {
    const url = await serve((a) => a.on('sendStreamingMessage', stream(steps)));
    const c = capture(true);
    expect(await main(['send', url, 'hi', '--stream', '--json'], c.io)).toBe(0);
    const events = c.stdout.map((l) => JSON.parse(l) as { done: boolean; text?: string });
    expect(events.at(-1)).toMatchObject({ done: true, text: 'hello' });
    expect(c.drawn.length).toBeGreaterThan(0);
  });

  it('not a terminal: no progress at all', async () => {
    const url = await serve((a) => a.on('sendStreamingMessage', stream(steps)));
    const c = capture(false);
    expect(await main(['send', url, 'hi', '--stream'], c.io)).toBe(0);
    expect(c.drawn).toEqual([]);
    expect(c.stdout).toEqual(['hello']);
  });
});

describe('send --stream for people', () => {
  /** A CommandIO with `write`, as the process's: everything that reaches stdout, raw, in order. */
  function rawCapture(): { io: CommandIO; stdout: string[]; stderr: string[] } {
    const stdout: string[] = [];
    const stderr: string[] = [];
    return { stdout, stderr, io: { out: (l) => stdout.push(`${l}\n`), err: (l) => stderr.push(l), write: (t) => stdout.push(t) } };
  }

  it('prints each chunk as it comes, on one line, ends it with a newline and does not print the answer again', async () => {
    const url = await serve((a) => a.on('sendStreamingMessage', stream(steps)));
    const c = rawCapture();
    expect(await main(['send', url, 'hi', '--stream'], c.io)).toBe(0);
    expect(c.stdout).toEqual(['hel', 'lo', '\n']);
    expect(c.stderr).toEqual([]);
  });

  it('an answer that was not streamed (one message) is printed whole, once', async () => {
    const url = await serve((a) => a.on('sendStreamingMessage', replyText('pong')));
    const c = rawCapture();
    expect(await main(['send', url, 'hi', '--stream'], c.io)).toBe(0);
    expect(c.stdout.join('')).toBe('pong\n');
  });

  it('a failure after some chunks ends their line first; the error goes to stderr (exit 1)', async () => {
    const url = await serve((a) => a.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'par' }, { status: 'failed', text: 'out of paper' }])));
    const c = rawCapture();
    expect(await main(['send', url, 'hi', '--stream', '--retries', '0'], c.io)).toBe(1);
    expect(c.stdout).toEqual(['par', '\n']);
    expect(c.stderr.join('\n')).toContain('error: out of paper');
  });
});
