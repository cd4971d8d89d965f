/**
 * End-to-end circuit breaker, bulkhead and diagnostics channel through the real A2AClient against
 * loopback mock agents (undici engine).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type ClientOptions, type ResilienceEvent } from '../../src/index.js';
import { delay, failFirst, httpError, mockAgent, replyText, type MockAgent } from '../../mocks/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});
let seq = 0;
const uniqueName = (p: string): string => `${p}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const msg = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] } };

async function serve(agent: MockAgent, options: ClientOptions): Promise<A2AClient> {
  const server = await agent.listen();
  cleanups.push(server.close);
  const client = await A2AClient.connect(server.url, options);
  cleanups.unshift(() => client.close());
  return client;
}
const failure = (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

describe('breaker, bulkhead, diagnostics end to end', () => {
  it('opens after N health failures, fails fast without reaching the agent, half-opens, one probe closes it', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-breaker'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', failFirst(3, httpError(503), replyText('ok')));
    const events: ResilienceEvent[] = [];
    const client = await serve(agent, { retry: false, circuitBreaker: { consecutiveFailures: 3, halfOpenAfterMs: 1_000 }, onEvent: (e) => events.push(e) });
    for (let i = 0; i < 3; i++) expect(isA2AClientError(await failure(client.sendMessage(msg)))).toBe(true);
    expect(events.some((e) => e.type === 'breaker-open')).toBe(true);
    const t0 = performance.now();
    const open = await failure(client.sendMessage(msg));
    const fastMs = performance.now() - t0;
    expect(isA2AClientError(open) && open.kind).toBe('circuit-open');
    expect(isA2AClientError(open) && (open.retryAfterMs ?? 0) > 0).toBe(true);
    // Fail-fast latency is measured in bench/ (p99 < 0.1 ms); here: well inside the open window, nothing sent.
    expect(fastMs).toBeLessThan(500);
    expect(agent.callsOf('sendMessage')).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 1_050));
    const ok = await client.sendMessage(msg);
    expect(ok.kind).toBe('message');
    expect(agent.callsOf('sendMessage')).toHaveLength(4);
    expect(events.map((e) => e.type).filter((t) => t.startsWith('breaker'))).toEqual(['breaker-open', 'breaker-half-open', 'breaker-close']);
  });

  it('bulkhead maxConcurrent 2 + maxQueued 1: of 5 concurrent calls 3 run, 2 are rejected', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-bulkhead'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', delay(150, replyText('ok')));
    const client = await serve(agent, { maxConcurrent: 2, maxQueued: 1 });
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => client.sendMessage(msg)));
    const rejected = settled.filter((s) => s.status === 'rejected').map((s) => (s.status === 'rejected' && isA2AClientError(s.reason) ? s.reason.kind : 'other'));
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3);
    expect(rejected).toEqual(['bulkhead-rejected', 'bulkhead-rejected']);
    expect(agent.callsOf('sendMessage')).toHaveLength(3);
  });

  it('publishes retry events on the a2a-resilient:retry diagnostics channel without onEvent', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-diag'), version: '0.3', binding: 'JSONRPC' });
    agent.on('sendMessage', failFirst(1, httpError(503, { problem: { retry_after_ms: 20 } }), replyText('ok')));
    const seen: unknown[] = [];
    const listener = (message: unknown): void => void seen.push(message);
    subscribe('a2a-resilient:retry', listener);
    try {
      const client = await serve(agent, {});
      await client.sendMessage(msg);
    } finally {
      unsubscribe('a2a-resilient:retry', listener);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ type: 'retry', method: 'sendMessage', reason: 'hint:delay(problem)', delayMs: 20 });
  });
});
