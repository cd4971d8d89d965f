import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, A2AClientError, fanOut, isA2AClientError } from '../../src/index.js';
import { failedTask, hang, mockAgent, replyText, type MockServer } from '../../mocks/index.js';

const servers: MockServer[] = [];
const clients: A2AClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

let seq = 0;
async function agent(kind: 'ok' | 'hang' | 'fail', options: ConstructorParameters<typeof A2AClient>[1] = {}, name?: string): Promise<A2AClient> {
  seq += 1;
  const mock = mockAgent({ name: name ?? `fan-${kind}-${seq}`, version: '1.0', binding: 'JSONRPC' });
  if (kind === 'ok') mock.on('sendMessage', replyText(`answer from ${mock.name}`));
  if (kind === 'hang') mock.on('sendMessage', hang());
  if (kind === 'fail') mock.on('sendMessage', failedTask({ error_code: 'NOPE', error_message: 'no such thing' }));
  const server = await mock.listen();
  servers.push(server);
  const client = await A2AClient.connect(server.url, options);
  clients.push(client);
  return client;
}

describe('fanOut', () => {
  it('returns at the deadline when 3 of 10 agents hang, not after the sum of their timeouts', async () => {
    const targets = await Promise.all([
      ...Array.from({ length: 7 }, () => agent('ok')),
      ...Array.from({ length: 3 }, () => agent('hang', { circuitBreaker: false })),
    ]);
    const started = performance.now();
    const result = await fanOut(
      targets.map((client) => ({ client, input: 'hi' })),
      { minResults: 5, totalMs: 400 },
    );
    const elapsed = performance.now() - started;
    expect(result.ok).toHaveLength(7);
    expect(result.failed).toHaveLength(3);
    expect(result.failed.map((f) => f.error.cause?.kind)).toEqual(['deadline-exceeded', 'deadline-exceeded', 'deadline-exceeded']);
    expect(result.ok[0]?.events.at(-1)?.text).toMatch(/^answer from fan-ok-/);
    // Generous window for a busy CI machine; the precise figure is measured in bench/.
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(1_500);
  });

  it('puts business failures in failed with their rebuilt ResponseError', async () => {
    const targets = [await agent('ok'), await agent('fail')];
    const result = await fanOut(targets.map((client) => ({ client, input: 'hi' })));
    expect(result.ok.map((r) => r.agent)).toEqual([targets[0]?.name]);
    expect(result.failed).toEqual([
      {
        agent: targets[1]?.name,
        label: targets[1]?.name,
        index: 1,
        error: expect.objectContaining({ type: 'flow_error', source: 'agent', code: 'NOPE', message: 'no such thing', retryable: false, ambiguous: false }),
      },
    ]);
  });

  it('throws insufficient-results carrying every failure when fewer than minResults succeed', async () => {
    const targets = [await agent('ok'), await agent('fail'), await agent('fail')];
    const error = await fanOut(targets.map((client) => ({ client, input: 'hi' })), { minResults: 2 }).catch((e: unknown) => e);
    expect(isA2AClientError(error)).toBe(true);
    const e = error as A2AClientError;
    expect(e.kind).toBe('insufficient-results');
    expect(e.failures?.map((f) => f.agent)).toEqual([targets[1]?.name, targets[2]?.name]);
    expect(e.failures?.map((f) => [f.error.code, f.index])).toEqual([['NOPE', 1], ['NOPE', 2]]);
  });

  it("with settle: 'min' cancels the rest once minResults succeeded", async () => {
    const targets = [await agent('ok'), await agent('ok'), await agent('hang', { circuitBreaker: false })];
    const started = performance.now();
    const result = await fanOut(targets.map((client) => ({ client, input: 'hi' })), { minResults: 2, settle: 'min', totalMs: 10_000 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.ok).toHaveLength(2);
    expect(result.skipped).toEqual([
      { agent: targets[2]?.name, label: targets[2]?.name, index: 2, error: expect.objectContaining({ type: 'canceled', source: 'path', code: 'settled' }) },
    ]);
  });

  it('answers an agent whose breaker is open instantly, into skipped', async () => {
    const dead = await agent('hang', { timeouts: { readMs: 1_000 }, retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 60_000 } });
    const healthy = await agent('ok');
    const first = await fanOut([{ client: dead, input: 'x' }, { client: healthy, input: 'x' }]);
    expect(first.failed.map((f) => f.error.cause?.kind)).toEqual(['read-timeout']);
    const started = performance.now();
    const second = await fanOut([{ client: dead, input: 'x' }]).catch((e: unknown) => e);
    // Well under the dead agent's 1 s read timeout: it was not asked.
    expect(performance.now() - started).toBeLessThan(500);
    expect((second as A2AClientError).kind).toBe('insufficient-results');
    const again = await fanOut([{ client: dead, input: 'x' }, { client: healthy, input: 'x' }]);
    expect(again.skipped).toEqual([{ agent: dead.name, label: dead.name, index: 0, error: expect.objectContaining({ type: 'circuit_open', source: 'path' }) }]);
    expect(again.skipped[0]?.error.retryAfterMs).toBeGreaterThan(50_000);
  });

  it('keeps agents whose cards share one name apart by label and index, in ok, failed, skipped and the error', async () => {
    const dead = await agent('hang', { timeouts: { readMs: 300 }, retry: false, circuitBreaker: { consecutiveFailures: 1, halfOpenAfterMs: 60_000 } }, 'replica');
    await dead.invoke('x'); // a read timeout: its breaker opens
    const [up, down] = [await agent('ok', {}, 'replica'), await agent('fail', {}, 'replica')];
    const targets = [
      { client: up, input: 'hi', label: 'replica-eu' },
      { client: down, input: 'hi' },
      { client: dead, input: 'hi', label: 'replica-us' },
    ];
    const result = await fanOut(targets);
    expect(result.ok.map(({ agent, label, index }) => ({ agent, label, index }))).toEqual([{ agent: 'replica', label: 'replica-eu', index: 0 }]);
    expect(result.failed).toEqual([{ agent: 'replica', label: 'replica', index: 1, error: expect.objectContaining({ code: 'NOPE', source: 'agent' }) }]);
    expect(result.skipped).toEqual([{ agent: 'replica', label: 'replica-us', index: 2, error: expect.objectContaining({ type: 'circuit_open', source: 'path' }) }]);

    const error = await fanOut(targets, { minResults: 2 }).catch((e: unknown) => e);
    expect(isA2AClientError(error) && error.kind).toBe('insufficient-results');
    const failures = (error as A2AClientError).failures ?? [];
    expect(failures.map(({ agent, label, index, error: e }) => [agent, label, index, e.type])).toEqual([
      ['replica', 'replica', 1, 'flow_error'],
      ['replica', 'replica-us', 2, 'circuit_open'],
    ]);
    expect((error as A2AClientError).toJSON().failures).toEqual([
      expect.objectContaining({ label: 'replica', index: 1 }),
      expect.objectContaining({ label: 'replica-us', index: 2 }),
    ]);
  });

  it('throws aborted when the caller aborts', async () => {
    const slow = await agent('hang', { circuitBreaker: false });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const error = await fanOut([{ client: slow, input: 'x' }], { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect((error as A2AClientError).kind).toBe('aborted');
  });
});
