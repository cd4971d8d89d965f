/**
 * End-to-end retries through the real A2AClient against mock agents, on both engines (msw + fetch,
 * loopback server + undici): a retryable failure twice then success, and a fatal one never retried.
 */
import { describe, expect, it } from 'vitest';
import { useE2E, uniqueName, type Way } from './e2e-setup.js';
import { z } from 'zod';
import { isA2AClientError, type ResilienceEvent } from '../../src/index.js';
import { failFirst, hang, httpError, jsonRpcError, mockAgent, replyText, type MockAgent } from '../../mocks/index.js';

const { serve } = useE2E();

const SendParams = z.looseObject({ message: z.looseObject({ messageId: z.string() }) });
const messageIds = (agent: MockAgent): string[] => agent.callsOf('sendMessage').map((c) => SendParams.parse(c.params).message.messageId);

describe.each<Way>(['msw+fetch', 'loopback+undici'])('retries end to end (%s)', (way) => {
  it('503 problem+json retry_after_ms twice, then success: same messageId, waits honoured, retry events', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-503'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', failFirst(2, httpError(503, { problem: { title: 'busy', retry_after_ms: 50 } }), replyText('ok')));
    const events: ResilienceEvent[] = [];
    const client = await serve(way, agent, { onEvent: (e) => events.push(e) });
    const started = performance.now();
    const result = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    const elapsed = performance.now() - started;
    expect(result.kind).toBe('message');
    const ids = messageIds(agent);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(5_000);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => e.reason)).toEqual(['hint:delay(problem)', 'hint:delay(problem)']);
    expect(retries.map((e) => e.delayMs)).toEqual([50, 50]);
  });

  it('JSON-RPC -32602 is never retried: one call, fatal error with its code', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-32602'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', jsonRpcError(-32602, 'bad params'));
    const client = await serve(way, agent, {});
    const error: unknown = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isA2AClientError(error) && error.kind).toBe('json-rpc');
    expect(isA2AClientError(error) && error.code).toBe(-32602);
    expect(isA2AClientError(error) && error.retryable).toBe(false);
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
  });
  it('a Retry-After longer than the time left gives up at once with retryAfterMs set', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-ra'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', httpError(503, { retryAfter: 30 }));
    const client = await serve(way, agent, {});
    const started = performance.now();
    const error: unknown = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }, { timeouts: { totalMs: 2_000 } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(isA2AClientError(error) && error.kind).toBe('http');
    expect(isA2AClientError(error) && error.retryAfterMs).toBe(30_000);
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
  });

  it('a hanging agent with ambiguous retries on never outlives totalMs by much; attempts keep every error', async () => {
    const agent = mockAgent({ name: uniqueName('e2e-hang'), version: '1.0', binding: 'JSONRPC' });
    agent.on('sendMessage', hang());
    const client = await serve(way, agent, { retry: { maxAttempts: 10, baseDelayMs: 10, ambiguous: true } });
    const started = performance.now();
    const error: unknown = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }, { timeouts: { connectMs: 150, readMs: 150, totalMs: 600 } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(600 + 400);
    expect(isA2AClientError(error) && error.kind).toBe('deadline-exceeded');
    const attempts = isA2AClientError(error) ? error.attempts : [];
    // The fetch engine's pre-headers timer is max(connectMs, readMs): both are set small.
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    // Every attempt timed out reading, but one the deadline cut while it waited: that one is kept
    // too, with how far it got — and the call says so (the last send may have reached the agent).
    const cut = attempts.at(-1)?.kind === 'deadline-exceeded' ? attempts.at(-1) : undefined;
    expect(attempts.slice(0, cut ? -1 : undefined).every((a) => a.kind === 'read-timeout')).toBe(true);
    if (cut) {
      expect(cut.phase).toBe('after-send');
      expect(isA2AClientError(error) && error.phase).toBe('after-send');
    }
  });
});
