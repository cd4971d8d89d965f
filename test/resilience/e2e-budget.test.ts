/**
 * End-to-end retry budget: 100 concurrent callers against a dead agent (always 503 + Retry-After: 0, so
 * sends are retried),
 * counting the requests the agent actually received with the default budget and without one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type ClientOptions } from '../../src/index.js';
import { httpError, mockAgent } from '../../mocks/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});
let seq = 0;
const msg = { message: { role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hi' }] } };

async function storm(options: ClientOptions): Promise<{ sent: number; kinds: string[] }> {
  const agent = mockAgent({ name: `e2e-budget-${++seq}-${Math.random().toString(36).slice(2, 8)}`, version: '1.0', binding: 'JSONRPC' });
  agent.on('sendMessage', httpError(503, { retryAfter: 0 }));
  const server = await agent.listen();
  cleanups.push(server.close);
  const client = await A2AClient.connect(server.url, { circuitBreaker: false, ...options });
  cleanups.unshift(() => client.close());
  const settled = await Promise.allSettled(Array.from({ length: 100 }, () => client.sendMessage(msg)));
  const kinds = settled.map((s) => (s.status === 'rejected' && isA2AClientError(s.reason) ? s.reason.kind : 'other'));
  return { sent: agent.callsOf('sendMessage').length, kinds };
}

describe('retry budget end to end', () => {
  it('holds retries near ratio × requests + floor; callers see budget-exhausted', async () => {
    const retry = { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 };
    const budgeted = await storm({ retry });
    const unbounded = await storm({ retry: { ...retry, budget: false } });
    console.log(`retry storm e2e, 100 callers × 3 attempts: ${unbounded.sent} requests without budget, ${budgeted.sent} with the default budget`);
    expect(unbounded.sent).toBe(300);
    // default budget: 0.1 × 100 requests + 1/s × 10 s window = 20 retries
    expect(budgeted.sent).toBeGreaterThanOrEqual(100);
    expect(budgeted.sent).toBeLessThanOrEqual(125);
    expect(budgeted.kinds.filter((k) => k === 'budget-exhausted').length).toBeGreaterThanOrEqual(75);
    expect(unbounded.kinds.every((k) => k === 'http')).toBe(true);
  });
});
