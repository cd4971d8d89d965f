import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2AClient, isA2AClientError } from '../../src/index.js';
import { cleanUpAfter, runThenClose } from '../../src/util/clean-up-after.js';

/** Warnings emitted while a test runs, captured instead of printed. */
function captureWarnings(): Array<{ text: string; code: unknown }> {
  const seen: Array<{ text: string; code: unknown }> = [];
  vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error, options?: unknown) => {
    const code = typeof options === 'object' && options !== null && 'code' in options ? options.code : undefined;
    seen.push({ text: String(warning), code });
  });
  return seen;
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((o) => o.close()));
});

/** A loopback agent with no card: every request gets a 404. */
async function noCardServer(): Promise<string> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no card here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A caller's dispatcher that sends through a real undici Agent but cannot be closed or destroyed. */
function unclosableDispatcher(how: 'throws' | 'missing'): Dispatcher {
  const real = new Agent();
  opened.push({ close: () => real.close() });
  const broken = (): never => {
    throw new TypeError('this dispatcher cannot be closed');
  };
  const dispatcher = { dispatch: real.dispatch.bind(real), ...(how === 'throws' ? { close: broken, destroy: broken } : {}) };
  // Bun's substitute and hand-written dispatchers are not undici's class; the client only ever calls `dispatch`.
  return dispatcher as unknown as Dispatcher;
}

describe('a failure while cleaning up never replaces the failure being reported', () => {
  it.each(['throws', 'missing'] as const)('connect() with a dispatcher whose close %s reports the card failure', async (how) => {
    const warnings = captureWarnings();
    const url = await noCardServer();
    const error: unknown = await A2AClient.connect(url, { dispatcher: unclosableDispatcher(how), retry: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isA2AClientError(error)).toBe(true);
    if (!isA2AClientError(error)) return;
    expect(error.kind).toBe('card');
    expect(error.status).toBe(404);
    // The caller's dispatcher is theirs: never closed by the client, so nothing failed to close.
    expect(warnings).toEqual([]);
  });

  it('runThenClose: a close that throws after a failure leaves that failure and warns once', async () => {
    const warnings = captureWarnings();
    const primary = new Error('the real failure');
    const result = runThenClose(
      () => Promise.reject(primary),
      () => {
        throw new TypeError('close is not a function');
      },
    );
    await expect(result).rejects.toBe(primary);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe('A2A_RESILIENT_CLEANUP');
    expect(warnings[0]?.text).toContain('TypeError: close is not a function');
    // The failure being reported is named by its type only; its message is on its way to the caller.
    expect(warnings[0]?.text).not.toContain('the real failure');
  });

  it('runThenClose: a close that fails after a success is the failure', async () => {
    const warnings = captureWarnings();
    const closeFailure = new Error('close failed');
    await expect(runThenClose(() => Promise.resolve(1), () => Promise.reject(closeFailure))).rejects.toBe(closeFailure);
    expect(warnings).toEqual([]);
  });

  it('cleanUpAfter: a rejected or thrown cleanup is reported; a clean one is silent', async () => {
    const warnings = captureWarnings();
    await cleanUpAfter(new Error('x'), () => Promise.reject(new Error('rejected close')));
    await cleanUpAfter(new Error('y'), () => {
      throw new Error('thrown close');
    });
    await cleanUpAfter(new Error('z'), () => Promise.resolve());
    expect(warnings.map((w) => w.text)).toEqual([expect.stringContaining('rejected close'), expect.stringContaining('thrown close')]);
  });
});
