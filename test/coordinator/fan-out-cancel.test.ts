/**
 * `fanOut(…, { cancelOnAbort: true })` against official `@a2a-js/sdk` servers (v1.0 and v0.3): the
 * tasks of agents still running when the fan-out settles — `settle: 'min'` met, or the deadline —
 * end `canceled` at their agents; the answers of the fast agents are what they would be without it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, fanOut, type ResilienceEvent } from '../../src/index.js';
import type { CancelEvent } from '../../src/resilience/event-types.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.each(['1.0', '0.3'] as const)('fanOut cancelOnAbort ↔ official servers v%s', (version) => {
  let fast: OfficialServer;
  let slow: OfficialServer;
  let plain: OfficialServer;
  const clients: A2AClient[] = [];
  const cancels: CancelEvent[] = [];
  const onEvent = (e: ResilienceEvent): void => {
    if (e.type === 'cancel') cancels.push(e);
  };
  beforeAll(async () => {
    [fast, slow, plain] = await Promise.all([
      startOfficialServer({ name: 'fast' }),
      startOfficialServer({ name: 'slow' }),
      startOfficialServer({ name: 'slow-unary', streaming: false }),
    ]);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    cancels.length = 0;
  });
  afterAll(async () => {
    await Promise.all([fast.close(), slow.close(), plain.close()]);
  });
  async function connect(server: OfficialServer): Promise<A2AClient> {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding: 'JSONRPC' }, onEvent });
    clients.push(client);
    return client;
  }
  /** Waits until `n` cancel events arrived (each cancel has its own 2 s deadline). */
  async function cancelsSettled(n: number): Promise<CancelEvent[]> {
    for (let i = 0; i < 120 && cancels.length < n; i++) await sleep(25);
    return [...cancels];
  }
  async function stateAt(client: A2AClient, id: string): Promise<string> {
    let state = '';
    for (let i = 0; i < 20; i++) {
      state = (await client.getTask({ id })).status.state;
      if (state !== 'working' && state !== 'submitted') break;
      await sleep(25);
    }
    return state;
  }

  it("settle: 'min' met by the fast agents: the slow agents' tasks end canceled; the fast answers are unchanged", async () => {
    const [f1, f2, s1, s2, u1] = await Promise.all([connect(fast), connect(fast), connect(slow), connect(slow), connect(plain)]);
    const plainAnswer = await (f1 as A2AClient).invoke('echo fast answer');
    const started = performance.now();
    const result = await fanOut(
      [
        { client: f1 as A2AClient, input: 'echo fast answer' },
        { client: s1 as A2AClient, input: 'slow-chunk partial' },
        { client: f2 as A2AClient, input: 'echo fast answer' },
        { client: s2 as A2AClient, input: 'slow-chunk partial' },
        { client: u1 as A2AClient, input: 'slow-chunk polled' },
      ],
      { minResults: 2, settle: 'min', totalMs: 5_000, cancelOnAbort: true },
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.ok.map((r) => r.agent)).toEqual(['fast', 'fast']);
    for (const ok of result.ok) {
      const last = ok.events.at(-1);
      expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: plainAnswer.at(-1)?.text });
      expect(last?.text).toBe('fast answer');
    }
    expect(result.failed).toEqual([]);
    expect(result.skipped.map((s) => [s.agent, s.error.code])).toEqual([['slow', 'settled'], ['slow', 'settled'], ['slow-unary', 'settled']]);
    const events = await cancelsSettled(3);
    expect(events.map((e) => [e.agent, e.reason, e.outcome]).sort()).toEqual([
      ['slow', 'aborted', 'canceled'],
      ['slow', 'aborted', 'canceled'],
      ['slow-unary', 'aborted', 'canceled'],
    ]);
    const byAgent = { slow: s1 as A2AClient, 'slow-unary': u1 as A2AClient } as const;
    for (const e of events) expect(await stateAt(byAgent[e.agent as keyof typeof byAgent], e.taskId)).toBe('canceled');
  });

  it('the deadline: the slow tasks end canceled, the fast results stand', async () => {
    const [f1, s1, u1] = await Promise.all([connect(fast), connect(slow), connect(plain)]);
    const started = performance.now();
    const result = await fanOut(
      [
        { client: f1 as A2AClient, input: 'echo quick' },
        { client: s1 as A2AClient, input: 'slow-chunk partial' },
        { client: u1 as A2AClient, input: 'slow-chunk polled' },
      ],
      { minResults: 1, totalMs: 500, cancelOnAbort: true },
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2_000);
    expect(result.ok.map((r) => [r.agent, r.events.at(-1)?.text])).toEqual([['fast', 'quick']]);
    expect(result.failed.map((f) => [f.agent, f.error.cause?.kind]).sort()).toEqual([['slow', 'deadline-exceeded'], ['slow-unary', 'deadline-exceeded']]);
    const events = await cancelsSettled(2);
    expect(events.map((e) => [e.agent, e.reason, e.outcome]).sort()).toEqual([
      ['slow', 'deadline-exceeded', 'canceled'],
      ['slow-unary', 'deadline-exceeded', 'canceled'],
    ]);
    for (const e of events) expect(await stateAt(e.agent === 'slow' ? (s1 as A2AClient) : (u1 as A2AClient), e.taskId)).toBe('canceled');
  });

  it('without cancelOnAbort the slow tasks keep running (blocking invoke: no task id to cancel)', async () => {
    const [f1, s1] = await Promise.all([connect(fast), connect(slow)]);
    const result = await fanOut(
      [
        { client: f1 as A2AClient, input: 'echo quick' },
        { client: s1 as A2AClient, input: 'slow-chunk partial' },
      ],
      { minResults: 1, settle: 'min', totalMs: 5_000 },
    );
    expect(result.ok.map((r) => r.events)).toEqual([(await (f1 as A2AClient).invoke('echo quick')).map((e) => ({ ...e, id: expect.any(String), taskId: expect.any(String), contextId: expect.any(String), raw: expect.anything() }))]);
    await sleep(150);
    expect(cancels).toEqual([]);
  });
});
