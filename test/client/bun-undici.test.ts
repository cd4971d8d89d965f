/**
 * Bun replaces `undici` with its own module whose `Agent` has neither `dispatch` nor `close`. This file
 * loads the client with such an `Agent` in place of undici's (the rest of undici is the real one) to
 * check what the issue reported (with a `globalThis.Bun`, as there): `connect()` works (over the runtime's fetch), and a failure it
 * reports is the real one, never `this.#owned?.close is not a function` from cleaning up after it.
 * (The real Bun runs the same checks in `npm run test:runtimes`.)
 */
import { createRequire } from 'node:module';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// a2a-resilient loads undici on first use with Node's require() (src/transport/undici-lib.ts), so
// Bun's module goes where require() finds undici: the entry of Node's module cache, restored after.
const require = createRequire(import.meta.url);
require('undici');
const entry = require.cache[require.resolve('undici')];
if (entry === undefined) throw new Error('undici is not in the module cache');
const real = entry.exports as typeof import('undici');
/** Bun's substitute, as far as this client is concerned: constructible, no dispatch, no close. */
class BunAgent {
  constructor(options?: unknown) {
    void options;
  }
}
entry.exports = { ...real, Agent: BunAgent };
// On Bun, `globalThis.Bun` exists: the client then takes undici's exports from the package itself.
const bunGlobal = globalThis as { Bun?: unknown };
bunGlobal.Bun = {};

const { A2AClient, isA2AClientError } = await import('../../src/index.js');
const { mockAgent, replyText } = await import('../../mocks/index.js');

describe('an undici whose Agent has no dispatch or close (Bun)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(() => {
    entry.exports = real;
    delete bunGlobal.Bun;
  });

  it('connect() and a send work, over the fetch engine (the agent sees fetch’s user-agent)', async () => {
    const agent = mockAgent({ name: 'bun-agent', version: '1.0', binding: 'JSONRPC' }).on('sendMessage', replyText('pong'));
    const server = await agent.listen();
    try {
      const client = await A2AClient.connect(server.url);
      const result = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } });
      expect(result.kind === 'message' ? result.parts : []).toMatchObject([{ kind: 'text', text: 'pong' }]);
      // The undici engine sends no user-agent; Node's fetch sends its own.
      expect(agent.callsOf('sendMessage')[0]?.headers['user-agent']).toBeDefined();
      await client.close();
    } finally {
      await server.close();
    }
  });

  it('connect() rejects with the send failure, and no cleanup fails after it', async () => {
    const warnings: Array<{ text: string; code: unknown }> = [];
    vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error, options?: unknown) => {
      const code = typeof options === 'object' && options !== null && 'code' in options ? options.code : undefined;
      warnings.push({ text: String(warning), code });
    });
    const error: unknown = await A2AClient.connect('http://127.0.0.1:9/', { retry: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isA2AClientError(error)).toBe(true);
    if (!isA2AClientError(error)) return;
    expect(error.message).not.toMatch(/close is not a function/);
    expect(error.agent).toBe('http://127.0.0.1:9');
    expect(error.kind).toBe('connection');
    expect(warnings).toEqual([]);
  });

  it('proxy and tls need the undici engine: kind unsupported, naming the field', async () => {
    for (const [field, options] of [['proxy', { proxy: 'http://127.0.0.1:9' }], ['tls', { tls: { rejectUnauthorized: false } }]] as const) {
      const error: unknown = await A2AClient.connect('http://127.0.0.1:9/', { retry: false, ...options }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ kind: 'unsupported', field });
    }
  });
});
