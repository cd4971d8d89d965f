/**
 * `cancelOnAbort` end to end: an abandoned stream's task is cancelled at the agent — the official
 * `@a2a-js/sdk` server (v1.0 and v0.3) plays the agent, and its own task store says `canceled` —
 * while the caller is never kept waiting (a loopback agent that never answers the cancel).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type AgentEvent, type ResilienceEvent, type StreamEvent } from '../../src/index.js';
import type { CancelEvent } from '../../src/resilience/event-types.js';
import { hang, mockAgent, stream } from '../../mocks/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A client's `onEvent` with the `cancel` events it got, and a wait for the next one not yet taken. */
function cancelEvents(): { onEvent: (e: ResilienceEvent) => void; seen: CancelEvent[]; next: (timeoutMs?: number) => Promise<CancelEvent> } {
  const seen: CancelEvent[] = [];
  let taken = 0;
  let waiter: (() => void) | undefined;
  return {
    seen,
    onEvent: (e) => {
      if (e.type !== 'cancel') return;
      seen.push(e);
      waiter?.();
    },
    next: async (timeoutMs = 3_000) => {
      if (taken >= seen.length) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no cancel event within ${timeoutMs} ms`)), timeoutMs);
          waiter = () => {
            clearTimeout(timer);
            waiter = undefined;
            resolve();
          };
        });
      }
      return seen[taken++] as CancelEvent;
    },
  };
}

const taskIdOf = (e: StreamEvent): string => (e.kind === 'task' ? e.id : e.kind === 'message' ? '' : e.taskId);

/**
 * Aborts one stream without `cancelOnAbort`: the first abort in a process costs ~60 ms of cold code
 * (measured the same with and without the option), which is not what the timing assertions are about.
 */
async function warmAbortPath(url: string, version: '1.0' | '0.3' = '1.0'): Promise<void> {
  const client = await A2AClient.connect(url, { protocol: { version, binding: 'JSONRPC' } });
  const ac = new AbortController();
  try {
    for await (const e of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'slow-chunk warm' }] } }, { signal: ac.signal })) {
      if (e.kind === 'artifact-update' || e.kind === 'status-update') ac.abort();
    }
  } catch (error) {
    if (!isA2AClientError(error) || error.kind !== 'aborted') throw error;
  } finally {
    await client.close();
  }
}

/** The task's state at the agent, read until it settles (the SDK publishes `canceled` just after answering). */
async function stateAtAgent(client: A2AClient, id: string): Promise<string> {
  let state = '';
  for (let i = 0; i < 20; i++) {
    state = (await client.getTask({ id })).status.state;
    if (state !== 'working' && state !== 'submitted') return state;
    await sleep(25);
  }
  return state;
}

describe.each(['1.0', '0.3'] as const)('cancelOnAbort ↔ official server v%s', (version) => {
  let server: OfficialServer;
  const clients: A2AClient[] = [];
  beforeAll(async () => {
    server = await startOfficialServer();
    await warmAbortPath(server.baseUrl, version);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await server.close();
  });
  async function connect(options: { cancelOnAbort?: boolean; onEvent?: (e: ResilienceEvent) => void } = {}, base = server.baseUrl): Promise<A2AClient> {
    const client = await A2AClient.connect(base, { protocol: { version, binding: 'JSONRPC' }, ...options });
    clients.push(client);
    return client;
  }

  it('abort mid-stream: the caller gets `aborted` at once; the task ends canceled at the agent, reported as a cancel event', async () => {
    const events = cancelEvents();
    const client = await connect({ cancelOnAbort: true, onEvent: events.onEvent });
    const ac = new AbortController();
    const seen: StreamEvent[] = [];
    let abortedAt = 0;
    const error = await (async () => {
      for await (const e of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'slow-chunk hello' }] } }, { signal: ac.signal })) {
        seen.push(e);
        if (e.kind === 'artifact-update') {
          abortedAt = performance.now();
          ac.abort();
        }
      }
    })().catch((e: unknown) => e);
    const returnedMs = performance.now() - abortedAt;
    expect(isA2AClientError(error) && error.kind).toBe('aborted');
    // ~1 ms measured once warm; a generous window for a loaded machine, far below the cancel's 2 s.
    expect(returnedMs).toBeLessThan(100);
    const taskId = taskIdOf(seen[0] as StreamEvent);
    const event = await events.next();
    expect(event).toMatchObject({ type: 'cancel', agent: 'official-interop-agent', method: 'sendStreamingMessage', taskId, reason: 'aborted', outcome: 'canceled', state: 'canceled' });
    expect(event.error).toBeUndefined();
    expect(await stateAtAgent(client, taskId)).toBe('canceled');
  });

  it('break out of a for-await over stream(): canceled at the agent (reason `left`)', async () => {
    const events = cancelEvents();
    const client = await connect({ cancelOnAbort: true, onEvent: events.onEvent });
    let taskId: string | undefined;
    for await (const e of client.stream('slow-chunk hello')) {
      taskId ??= e.taskId;
      if (e.text === 'hello') break;
    }
    expect(taskId).toEqual(expect.any(String));
    expect(await events.next()).toMatchObject({ taskId, reason: 'left', outcome: 'canceled', method: 'sendStreamingMessage' });
    expect(await stateAtAgent(client, taskId as string)).toBe('canceled');
  });

  it('a throw in the loop body (per-call option over a client without it): canceled', async () => {
    const events = cancelEvents();
    const client = await connect({ onEvent: events.onEvent });
    let taskId: string | undefined;
    const thrown = new Error('caller bug');
    const error = await (async () => {
      for await (const e of client.stream('slow-chunk x', { cancelOnAbort: true })) {
        taskId ??= e.taskId;
        if (e.text === 'x') throw thrown;
      }
    })().catch((e: unknown) => e);
    expect(error).toBe(thrown);
    expect(await events.next()).toMatchObject({ taskId, reason: 'left', outcome: 'canceled' });
  });

  it('the deadline ends the stream: the event API reports deadline-exceeded, the task is canceled', async () => {
    const events = cancelEvents();
    const client = await connect({ cancelOnAbort: true, onEvent: events.onEvent });
    const got: AgentEvent[] = [];
    const started = performance.now();
    for await (const e of client.stream('slow-chunk hi', { timeouts: { totalMs: 400 } })) got.push(e);
    expect(performance.now() - started).toBeLessThan(1_500);
    const last = got.at(-1);
    expect(last?.error?.cause?.kind).toBe('deadline-exceeded');
    const taskId = got[0]?.taskId as string;
    expect(await events.next()).toMatchObject({ taskId, reason: 'deadline-exceeded', outcome: 'canceled' });
    expect(await stateAtAgent(client, taskId)).toBe('canceled');
  });

  it('subscribeToTask left early cancels the task it follows', async () => {
    const events = cancelEvents();
    const client = await connect({ cancelOnAbort: true, onEvent: events.onEvent });
    const sent = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'slow' }] }, configuration: { blocking: false } });
    expect(sent.kind).toBe('task');
    const id = sent.kind === 'task' ? sent.id : '';
    for await (const e of client.subscribeToTask({ id })) {
      expect(e.kind).toBe('task');
      break;
    }
    expect(await events.next()).toMatchObject({ taskId: id, method: 'subscribeToTask', reason: 'left', outcome: 'canceled' });
    expect(await stateAtAgent(client, id)).toBe('canceled');
  });

  it('an agent that does not stream: stream() sends non-blocking and polls, so leaving it cancels the task', async () => {
    const plain = await startOfficialServer({ streaming: false });
    try {
      const events = cancelEvents();
      const client = await A2AClient.connect(plain.baseUrl, { protocol: { version, binding: 'JSONRPC' }, cancelOnAbort: true, onEvent: events.onEvent });
      expect(client.card.capabilities.streaming).toBe(false);
      let taskId: string | undefined;
      for await (const e of client.stream('slow-chunk polled')) {
        taskId ??= e.taskId;
        if (e.text === 'polled') break;
      }
      expect(await events.next()).toMatchObject({ taskId, method: 'sendMessage', reason: 'left', outcome: 'canceled' });
      expect(await stateAtAgent(client, taskId as string)).toBe('canceled');
      await client.close();
    } finally {
      await plain.close();
    }
  });

  it('an agent that does not stream, with retry: false: the non-blocking send is followed by polling to the end (its answer is no failed round)', async () => {
    const plain = await startOfficialServer({ streaming: false, chunkDelayMs: 30 });
    try {
      const client = await A2AClient.connect(plain.baseUrl, { protocol: { version, binding: 'JSONRPC' }, cancelOnAbort: true, retry: false });
      const all: AgentEvent[] = [];
      for await (const e of client.stream('stream 3')) all.push(e);
      expect(all.filter((e) => e.error !== undefined)).toEqual([]);
      expect(all.at(-1)).toMatchObject({ done: true, state: 'completed' });
      await client.close();
    } finally {
      await plain.close();
    }
  });

  it('no cancel without cancelOnAbort: the task keeps running at the agent', async () => {
    const events = cancelEvents();
    const client = await connect({ onEvent: events.onEvent });
    let taskId: string | undefined;
    for await (const e of client.stream('slow-chunk y')) {
      taskId ??= e.taskId;
      if (e.text === 'y') break;
    }
    await sleep(150);
    expect(events.seen).toEqual([]);
    expect((await client.getTask({ id: taskId as string })).status.state).toBe('working');
    await client.cancelTask({ id: taskId as string });
  });

  it('no cancel when the stream completed, nor when it is left after the task reached its terminal state', async () => {
    const events = cancelEvents();
    const client = await connect({ cancelOnAbort: true, onEvent: events.onEvent });
    const all: AgentEvent[] = [];
    for await (const e of client.stream('stream 2')) all.push(e);
    expect(all.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed' });
    // Leave right at the terminal status, before the stream itself ends.
    for await (const e of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream 1' }] } })) {
      if (e.kind === 'status-update' && e.status.state === 'completed') break;
    }
    // Abort after everything arrived.
    const ac = new AbortController();
    for await (const e of client.stream('echo done', { signal: ac.signal })) if (e.done) ac.abort();
    await sleep(150);
    expect(events.seen).toEqual([]);
  });
});

describe('cancelOnAbort never blocks the caller', () => {
  it('an agent that never answers the cancel: the abort returns at once, the cancel gives up at its own 2 s deadline (failed), close() waits for it', async () => {
    const agent = mockAgent({ name: 'mute-on-cancel', version: '1.0', binding: 'JSONRPC' });
    agent.on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'part one' }], { idleAfter: 3 }));
    agent.on('cancelTask', hang());
    const server = await agent.listen();
    const events = cancelEvents();
    const published: unknown[] = [];
    const onPublish = (message: unknown): void => {
      published.push(message);
    };
    subscribe('a2a-resilient:cancel', onPublish);
    await warmAbortPath(server.url);
    const client = await A2AClient.connect(server.url, { cancelOnAbort: true, onEvent: events.onEvent, timeouts: { streamIdleMs: 60_000 } });
    let closed = false;
    try {
      const ac = new AbortController();
      let abortedAt = 0;
      let taskId: string | undefined;
      const error = await (async () => {
        for await (const e of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } }, { signal: ac.signal })) {
          taskId ??= taskIdOf(e);
          if (e.kind === 'artifact-update') {
            abortedAt = performance.now();
            ac.abort();
          }
        }
      })().catch((e: unknown) => e);
      const returnedMs = performance.now() - abortedAt;
      expect(isA2AClientError(error) && error.kind).toBe('aborted');
      // ~1 ms measured once warm; a generous window for a loaded machine, far below the cancel's 2 s.
      expect(returnedMs).toBeLessThan(100);
      expect(events.seen).toEqual([]);
      const closing = performance.now();
      closed = true;
      await client.close();
      const closeMs = performance.now() - closing;
      expect(events.seen).toHaveLength(1);
      const event = events.seen[0] as CancelEvent;
      expect(event).toMatchObject({ taskId, reason: 'aborted', outcome: 'failed', errorKind: 'deadline-exceeded' });
      expect(event.elapsedMs).toBeGreaterThanOrEqual(1_900);
      expect(event.elapsedMs).toBeLessThan(4_000);
      expect(closeMs).toBeGreaterThan(1_500);
      expect(agent.calls.filter((c) => c.method === 'cancelTask')).toHaveLength(1);
      expect(published).toEqual([event]);
    } finally {
      unsubscribe('a2a-resilient:cancel', onPublish);
      if (!closed) await client.close();
      await server.close();
    }
  });
});
