/**
 * `client.resume(taskId)`: the event API for a task that already exists, against the official
 * `@a2a-js/sdk` server (v1.0 and v0.3, JSON-RPC and REST) and a mock agent that does not stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, type AgentEvent, type ClientOptions, type StreamEvent, type Task, type TaskState } from '../../src/index.js';
import { httpError, mockAgent, type MockAgent, type Scenario } from '../../mocks/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { COMBOS } from './harness.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer({ chunkDelayMs: 15 });
});
afterAll(async () => {
  await server.close();
});

const expected = (n: number): string => Array.from({ length: n }, (_, i) => `chunk ${i} `).join('');

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const chunkText = (events: readonly AgentEvent[]): string =>
  events.filter((e) => e.object === 'chat.completion.chunk' && e.state === undefined).map((e) => e.text ?? '').join('');

describe.each(COMBOS)('resume on the official server (v%s %s)', (version, binding) => {
  const options = (): ClientOptions => ({ protocol: { version, binding }, retry: { baseDelayMs: 10, budget: false } });

  it('a second client picks up a running task the first one left: the snapshot, then every chunk exactly once, in order', async () => {
    const first = await A2AClient.connect(server.baseUrl, options());
    let taskId: string | undefined;
    let seen = 0;
    // The first client reads a few updates, then goes away (its stream is closed).
    for await (const event of first.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream 40' }] } })) {
      taskId ??= taskIdOf(event);
      if (event.kind === 'artifact-update') seen++;
      if (seen === 5) break;
    }
    await first.close();
    expect(taskId).toBeDefined();

    const second = await A2AClient.connect(server.baseUrl, options());
    try {
      const events = await collect(second.resume(taskId as string));
      expect(chunkText(events)).toBe(expected(40));
      const last = events.at(-1);
      expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', taskId });
      expect(last?.text).toBe(expected(40).replace(/\n$/, ''));
      // The snapshot came first: it already held what the first client had seen.
      expect(events[0]?.text?.startsWith('chunk 0 chunk 1 chunk 2 chunk 3 chunk 4 ')).toBe(true);
      expect(events.filter((e) => e.done)).toHaveLength(1);
      // Followed live: the chunks after the snapshot arrived one by one.
      expect(events.filter((e) => e.object === 'chat.completion.chunk').length).toBeGreaterThan(10);
    } finally {
      await second.close();
    }
  });

  it('a completed task: its answer and its final event, then the end (the agent refuses to subscribe to it: read with getTask)', async () => {
    const client = await A2AClient.connect(server.baseUrl, options());
    try {
      const sent = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream 3' }] } });
      expect(sent).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      const events = await collect(client.resume(sent.kind === 'task' ? sent.id : ''));
      expect(chunkText(events)).toBe(expected(3));
      expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: expected(3) });
      expect(events.filter((e) => e.done)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('an unknown task: one terminal error event naming TaskNotFound', async () => {
    const client = await A2AClient.connect(server.baseUrl, options());
    try {
      const events = await collect(client.resume('00000000-0000-4000-8000-000000000000'));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ object: 'error', done: true });
      expect(events[0]?.error?.cause).toMatchObject({ a2aName: 'TaskNotFound' });
    } finally {
      await client.close();
    }
  });
});

/** A `getTask` script: the n-th poll answers the n-th step (the last one from then on). */
function polled(steps: ReadonlyArray<{ state: TaskState; text: string } | Scenario>): Scenario {
  let n = 0;
  return (ctx) => {
    const step = steps[Math.min(n++, steps.length - 1)];
    if (typeof step === 'function') return step(ctx);
    const task: Task = {
      kind: 'task', id: ctx.taskId ?? 'none', contextId: 'ctx-poll', status: { state: step?.state ?? 'unknown' },
      artifacts: step?.text ? [{ artifactId: 'out', parts: [{ kind: 'text', text: step.text }] }] : [],
    };
    return { type: 'reply', result: task };
  };
}

describe.each(COMBOS)('resume of an agent that does not stream: polling getTask (v%s %s)', (version, binding) => {
  let agent: MockAgent;
  let close: (() => Promise<void>) | undefined;
  const start = async (steps: Parameters<typeof polled>[0]): Promise<A2AClient> => {
    agent = mockAgent({ name: `poller-${version}-${binding}`.toLowerCase().replace(/[^a-z0-9-]/g, ''), version, binding, streaming: false });
    agent.on('getTask', polled(steps));
    const served = await agent.listen();
    close = served.close;
    return A2AClient.connect(served.url, { retry: { baseDelayMs: 40, maxDelayMs: 1_000, budget: false } });
  };
  afterAll(async () => {
    await close?.();
  });

  it('each new piece once, in order; the intervals grow while nothing changes (getTask calls counted)', async () => {
    const client = await start([
      { state: 'working', text: 'Hel' },
      { state: 'working', text: 'Hel' },
      { state: 'working', text: 'Hel' },
      { state: 'working', text: 'Hel' },
      { state: 'working', text: 'Hello, ' },
      { state: 'completed', text: 'Hello, world' },
    ]);
    try {
      const events = await collect(client.resume('task-polled'));
      expect(events.filter((e) => e.object === 'chat.completion.chunk').map((e) => e.text)).toEqual(['Hel', 'lo, ', 'world']);
      expect(events.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: 'Hello, world' });
      const calls = agent.callsOf('getTask');
      expect(calls).toHaveLength(6);
      expect(agent.callsOf('subscribeToTask')).toHaveLength(0);
      const gaps = calls.slice(1).map((c, i) => c.at - (calls[i]?.at ?? 0));
      // The poll schedule: 25 ms after news, doubling while nothing changes (25 → 50 → 100 → 200 ms for
      // three polls without news). Timers never fire early, so each lower bound (less a few ms of clock
      // granularity) holds however loaded the machine is.
      expect(gaps[0]).toBeGreaterThanOrEqual(20);
      expect(gaps[1]).toBeGreaterThanOrEqual(45);
      expect(gaps[2]).toBeGreaterThanOrEqual(95);
      expect(gaps[3]).toBeGreaterThanOrEqual(195);
    } finally {
      await client.close();
      await close?.();
      close = undefined;
    }
  });

  it('an unknown task: one terminal error event naming TaskNotFound, after one getTask', async () => {
    const client = await start([(ctx) => ({ type: 'rpc-error', code: -32001, message: `Task not found: ${ctx.taskId ?? ''}` })]);
    try {
      const events = await collect(client.resume('no-such-task'));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ object: 'error', done: true });
      expect(events[0]?.error?.cause).toMatchObject({ a2aName: 'TaskNotFound' });
      expect(agent.callsOf('getTask')).toHaveLength(1);
    } finally {
      await client.close();
      await close?.();
      close = undefined;
    }
  });

  it('a 503 with Retry-After on a poll is waited out, then polling goes on', async () => {
    const client = await start([{ state: 'working', text: 'a' }, httpError(503, { retryAfter: 0.3 }), { state: 'completed', text: 'ab' }]);
    try {
      const events = await collect(client.resume('task-503'));
      expect(events.filter((e) => e.object === 'chat.completion.chunk').map((e) => e.text)).toEqual(['a', 'b']);
      const calls = agent.callsOf('getTask');
      expect(calls).toHaveLength(3);
      expect((calls[2]?.at ?? 0) - (calls[1]?.at ?? 0)).toBeGreaterThanOrEqual(250);
    } finally {
      await client.close();
      await close?.();
      close = undefined;
    }
  });
});

function taskIdOf(event: StreamEvent): string | undefined {
  if (event.kind === 'task') return event.id;
  if (event.kind === 'message') return event.taskId;
  return event.taskId;
}
