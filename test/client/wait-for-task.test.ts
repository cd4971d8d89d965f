/**
 * `client.waitForTask(taskId)`: the official server (a task that completes, one that asks for input is
 * scripted on a mock), polling intervals, Retry-After and the deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type Task, type TaskState } from '../../src/index.js';
import { httpError, mockAgent, type MockAgent, type Scenario } from '../../mocks/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { COMBOS } from './harness.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer({ chunkDelayMs: 10 });
});
afterAll(async () => {
  await server.close();
});

describe.each(COMBOS)('waitForTask on the official server (v%s %s)', (version, binding) => {
  it('a running task started elsewhere: resolves with the completed Task, artifacts included', async () => {
    const first = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    let taskId: string | undefined;
    for await (const event of first.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream 20' }] } })) {
      if (event.kind === 'task') taskId = event.id;
      if (taskId !== undefined) break;
    }
    await first.close();
    const second = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    try {
      const task = await second.waitForTask(taskId as string, { timeouts: { totalMs: 10_000 } });
      expect(task).toMatchObject({ kind: 'task', id: taskId, status: { state: 'completed' } });
      const text = task.artifacts?.[0]?.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      expect(text).toBe(Array.from({ length: 20 }, (_, i) => `chunk ${i} `).join(''));
      // Already settled: answered at once.
      const again = await second.waitForTask(taskId as string);
      expect(again.status.state).toBe('completed');
    } finally {
      await second.close();
    }
  });

  it('a task still working at the deadline: deadline-exceeded naming the last state, within a generous window', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    try {
      const sent = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'slow' }] }, configuration: { blocking: false } });
      const id = sent.kind === 'task' ? sent.id : '';
      const started = performance.now();
      const error: unknown = await client.waitForTask(id, { timeouts: { totalMs: 400 } }).catch((e: unknown) => e);
      const took = performance.now() - started;
      expect(isA2AClientError(error) && [error.kind, error.method]).toEqual(['deadline-exceeded', 'waitForTask']);
      expect(isA2AClientError(error) && error.message).toMatch(/last seen state: (working|submitted)/);
      expect(took).toBeGreaterThan(250);
      expect(took).toBeLessThan(1_500);
      await client.cancelTask({ id });
    } finally {
      await client.close();
    }
  });

  it('an unknown task: TaskNotFound', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    try {
      const error: unknown = await client.waitForTask('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
      expect(isA2AClientError(error) && error.a2aName).toBe('TaskNotFound');
    } finally {
      await client.close();
    }
  });
});

/** A `getTask` script: the n-th poll answers the n-th step (the last one from then on). */
function polled(steps: ReadonlyArray<TaskState | Scenario>): Scenario {
  let n = 0;
  return (ctx) => {
    const step = steps[Math.min(n++, steps.length - 1)] ?? 'unknown';
    if (typeof step === 'function') return step(ctx);
    const task: Task = { kind: 'task', id: ctx.taskId ?? 'none', contextId: 'ctx-wait', status: { state: step } };
    return { type: 'reply', result: task };
  };
}

describe('waitForTask by polling (an agent that does not stream)', () => {
  let agent: MockAgent;
  let close: (() => Promise<void>) | undefined;
  const start = async (steps: ReadonlyArray<TaskState | Scenario>): Promise<A2AClient> => {
    agent = mockAgent({ name: 'waiter', version: '1.0', binding: 'JSONRPC', streaming: false });
    agent.on('getTask', polled(steps));
    const served = await agent.listen();
    close = served.close;
    return A2AClient.connect(served.url, { retry: { baseDelayMs: 10, budget: false } });
  };
  afterAll(async () => {
    await close?.();
  });
  const finish = async (client: A2AClient): Promise<void> => {
    await client.close();
    await close?.();
    close = undefined;
  };

  it('input-required ends the wait (an interrupted task waits for the caller); polls back off from 25 ms, doubling', async () => {
    const client = await start(['submitted', 'working', 'working', 'working', 'working', 'input-required']);
    try {
      const task = await client.waitForTask('t-input');
      expect(task.status.state).toBe('input-required');
      const calls = agent.callsOf('getTask');
      expect(calls).toHaveLength(6);
      expect(agent.callsOf('subscribeToTask')).toHaveLength(0);
      const gaps = calls.slice(1).map((c, i) => c.at - (calls[i]?.at ?? 0));
      // 25, 50, 100, 200, 400 ms: timers never fire early, so each lower bound (less a few ms of clock
      // granularity) holds however loaded the machine is; the first poll comes soon.
      expect(gaps[0]).toBeGreaterThanOrEqual(20);
      expect(gaps[0]).toBeLessThan(1_000);
      expect(gaps[1]).toBeGreaterThanOrEqual(45);
      expect(gaps[2]).toBeGreaterThanOrEqual(95);
      expect(gaps[3]).toBeGreaterThanOrEqual(195);
      expect(gaps[4]).toBeGreaterThanOrEqual(395);
    } finally {
      await finish(client);
    }
  });

  it('a 429 with Retry-After, still refused after the retries: the next poll waits for it, then the completed task', async () => {
    const refuse = httpError(429, { retryAfter: 0.3 });
    const client = await start(['working', refuse, refuse, refuse, 'completed']);
    try {
      const task = await client.waitForTask('t-429', { retry: { maxAttempts: 3, baseDelayMs: 10, budget: false } });
      expect(task.status.state).toBe('completed');
      const calls = agent.callsOf('getTask');
      expect(calls).toHaveLength(5);
      for (let i = 2; i < 5; i++) expect((calls[i]?.at ?? 0) - (calls[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(250);
    } finally {
      await finish(client);
    }
  });

  it('a fatal poll failure ends the wait with the agent’s error', async () => {
    const client = await start(['working', httpError(403)]);
    try {
      const error: unknown = await client.waitForTask('t-403').catch((e: unknown) => e);
      expect(isA2AClientError(error) && [error.kind, error.status]).toEqual(['http', 403]);
      expect(agent.callsOf('getTask')).toHaveLength(2);
    } finally {
      await finish(client);
    }
  });

  it('the caller’s abort ends the wait at once with kind aborted', async () => {
    const client = await start(['working']);
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('gone')), 150);
      const started = performance.now();
      const error: unknown = await client.waitForTask('t-abort', { signal: controller.signal }).catch((e: unknown) => e);
      expect(isA2AClientError(error) && error.kind).toBe('aborted');
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await finish(client);
    }
  });

  it('a task that settles just before the deadline is not missed: one last poll shortly before it', async () => {
    // 25+50+100+200+400 ms of polls (six answers, all `working`), then the next interval (800 ms)
    // would pass the deadline at 1 s: a seventh poll goes out shortly before it, and by then the task
    // has settled (counted in polls, not in time, so a loaded machine cannot shift it).
    let polls = 0;
    const client = await start([(ctx) => ({ type: 'reply', result: { kind: 'task', id: ctx.taskId ?? '', contextId: 'c', status: { state: ++polls >= 7 ? 'completed' : 'working' } } })]);
    try {
      const task = await client.waitForTask('t-edge', { timeouts: { totalMs: 1_000 } });
      expect(task.status.state).toBe('completed');
      expect(polls).toBe(7);
    } finally {
      await finish(client);
    }
  });
});
