/**
 * Bounded resume, end to end on a real loopback agent (node:http, undici engine): an agent that
 * sends its Task and then a `-32603` SSE error frame, on the stream and on every resubscribe, gets
 * at most `maxAttempts` requests (the send and the resubscribes that bring nothing new), and the
 * call ends at once with the agent's own −32603 (every round in `attempts`); `retry: false` is one
 * request. A stream that brings news between drops is never cut by the count. The retry budget
 * charges resume rounds as retries and the breaker counts rounds that failed without news.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, isTerminalError, type AgentEvent, type ClientOptions, type ResilienceEvent, type StreamEvent } from '../../src/index.js';
import { recordingAgent, rpcId, rpcMethod, v1Card, type Answer, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';
import { uniqueName } from './e2e-setup.js';

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };
const task = (state = 'TASK_STATE_WORKING', artifacts?: unknown[]) => ({ id: 'task-1', contextId: 'ctx-1', status: { state }, ...(artifacts ? { artifacts } : {}) });
const internal = (req: Recorded) => ({ jsonrpc: '2.0', id: rpcId(req), error: { code: -32603, message: 'internal error' } });
const result = (req: Recorded, value: object) => ({ jsonrpc: '2.0', id: rpcId(req), result: value });
const STREAMS = new Set(['SendStreamingMessage', 'SubscribeToTask']);

/** A v1.0 JSON-RPC agent on loopback; `stream` answers every SendStreamingMessage / SubscribeToTask. */
async function agentWith(stream: (req: Recorded, method: string) => Answer): Promise<RecordingAgent> {
  const name = uniqueName('bounded');
  const agent = await recordingAgent((req, url) => {
    if (req.method === 'GET') return { body: v1Card(url, name) };
    const method = rpcMethod(req) ?? '?';
    if (STREAMS.has(method)) return stream(req, method);
    return { body: result(req, task()) };
  });
  agents.push(agent);
  return agent;
}

/** The agent: its Task, then a −32603 error frame — on the stream and on every resubscribe. */
const taskThenInternal = (req: Recorded): Answer => ({ sse: [result(req, { task: task() }), internal(req)] });

async function connect(agent: RecordingAgent, options: ClientOptions): Promise<A2AClient> {
  const client = await A2AClient.connect(agent.url, options);
  clients.push(client);
  return client;
}

const rpcCalls = (agent: RecordingAgent): string[] => agent.requests.filter((r) => r.method === 'POST').map((r) => rpcMethod(r) ?? '?');

async function failure(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

async function all(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const fast = { baseDelayMs: 5, maxDelayMs: 10, budget: false as const };

describe('an agent that sends its Task then −32603, on the stream and on every resubscribe', () => {
  it('maxAttempts 3: three requests (the send and two resubscribes), then the agent\'s own −32603 at once', async () => {
    const agent = await agentWith(taskThenInternal);
    const client = await connect(agent, { retry: { ...fast, maxAttempts: 3 }, circuitBreaker: false });
    const started = performance.now();
    const { events, error } = await failure(client.sendStreamingMessage(hi, { timeouts: { totalMs: 30_000 } }));
    const elapsed = performance.now() - started;
    expect(events.map((e) => e.kind)).toEqual(['task']);
    expect(isA2AClientError(error) && error).toMatchObject({ kind: 'json-rpc', code: -32603, retryable: true, ambiguous: true });
    expect(isA2AClientError(error) && error.attempts.map((a) => [a.kind, a.code])).toEqual(Array(3).fill(['json-rpc', -32603]));
    expect(rpcCalls(agent)).toEqual(['SendStreamingMessage', 'SubscribeToTask', 'SubscribeToTask']);
    // Never deadline-exceeded: the count, not the 30 s deadline, ends it.
    expect(elapsed).toBeLessThan(2_000);
  });

  it('maxAttempts 3 in the event API: the Task, then one terminal error event −32603, retryable and ambiguous', async () => {
    const agent = await agentWith(taskThenInternal);
    const client = await connect(agent, { retry: { ...fast, maxAttempts: 3 }, circuitBreaker: false });
    const events = await all(client.stream('hi', { timeouts: { totalMs: 30_000 } }));
    const terminal = events.at(-1);
    expect(terminal && isTerminalError(terminal)).toBe(true);
    expect(terminal?.error).toMatchObject({ code: '-32603', type: 'protocol_error', retryable: true, ambiguous: true });
    expect(events.filter((e) => e.error !== undefined)).toHaveLength(1);
    expect(rpcCalls(agent)).toHaveLength(3);
  });

  it('retry: false: exactly one request; the −32603 ends the call at once (protocol and event API)', async () => {
    const agent = await agentWith(taskThenInternal);
    const client = await connect(agent, { retry: false, circuitBreaker: false });
    const started = performance.now();
    const { error } = await failure(client.sendStreamingMessage(hi, { timeouts: { totalMs: 30_000 } }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(isA2AClientError(error) && error).toMatchObject({ kind: 'json-rpc', code: -32603, retryable: true, ambiguous: true });
    expect(isA2AClientError(error) && error.attempts).toHaveLength(1);
    expect(rpcCalls(agent)).toEqual(['SendStreamingMessage']);

    const events = await all(client.stream('hi', { timeouts: { totalMs: 30_000 } }));
    expect(events.at(-1)?.error).toMatchObject({ code: '-32603', retryable: true, ambiguous: true });
    expect(rpcCalls(agent)).toEqual(['SendStreamingMessage', 'SendStreamingMessage']);
  });

  it('a per-call retry: false over a retrying client: one request, no polling either', async () => {
    const agent = await agentWith(taskThenInternal);
    const client = await connect(agent, { retry: { ...fast, maxAttempts: 5 }, circuitBreaker: false });
    const { error } = await failure(client.sendStreamingMessage(hi, { retry: false }));
    expect(isA2AClientError(error) && error.code).toBe(-32603);
    expect(rpcCalls(agent)).toEqual(['SendStreamingMessage']);
  });

  it('subscribeToTask is bounded the same way, and its error is not ambiguous (following a task runs nothing)', async () => {
    const agent = await agentWith(taskThenInternal);
    const client = await connect(agent, { retry: { ...fast, maxAttempts: 2 }, circuitBreaker: false });
    const { events, error } = await failure(client.subscribeToTask({ id: 'task-1' }));
    expect(events.map((e) => e.kind)).toEqual(['task']);
    expect(isA2AClientError(error) && error).toMatchObject({ kind: 'json-rpc', code: -32603, retryable: true, ambiguous: false });
    expect(rpcCalls(agent)).toEqual(['SubscribeToTask', 'SubscribeToTask']);
  });

  it('the breaker counts the rounds that failed without news as failed attempts: three of them open it', async () => {
    const agent = await agentWith(taskThenInternal);
    const events: ResilienceEvent[] = [];
    const client = await connect(agent, {
      retry: { ...fast, maxAttempts: 3 },
      circuitBreaker: { consecutiveFailures: 3, halfOpenAfterMs: 60_000 },
      onEvent: (e) => events.push(e),
    });
    const { error } = await failure(client.sendStreamingMessage(hi));
    expect(isA2AClientError(error) && error.code).toBe(-32603);
    expect(events.filter((e) => e.type === 'breaker-open')).toHaveLength(1);
    const refused = await client.getTask({ id: 'task-1' }).catch((e: unknown) => e);
    expect(isA2AClientError(refused) && refused.kind).toBe('circuit-open');
    expect(rpcCalls(agent)).toHaveLength(3);
  });

  it('the retry budget charges resume rounds as retries: a spent budget ends the stream (cause: the agent\'s −32603)', async () => {
    const agent = await agentWith(taskThenInternal);
    const events: ResilienceEvent[] = [];
    // One retry in the window: the first resume round; the second is refused by the budget.
    const budget = { ratio: 0, minPerSecond: 0.1, windowMs: 10_000 };
    const client = await connect(agent, { retry: { baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 10, budget }, circuitBreaker: false, onEvent: (e) => events.push(e) });
    const { error } = await failure(client.sendStreamingMessage(hi));
    expect(isA2AClientError(error) && error.kind).toBe('budget-exhausted');
    expect(isA2AClientError(error) && isA2AClientError(error.cause) && error.cause.code).toBe(-32603);
    expect(rpcCalls(agent)).toEqual(['SendStreamingMessage', 'SubscribeToTask']);
    expect(events.some((e) => e.type === 'budget-exhausted')).toBe(true);
  });
});

describe('progress is not failure', () => {
  /**
   * Each connection brings one new chunk and then fails (−32603 on odd chunks, a close without a
   * terminal state on even ones): the resubscribe's snapshot holds what was produced so far.
   */
  const CHUNKS = 12;
  function chunkyAgent(): Promise<RecordingAgent> {
    let produced = 0;
    return agentWith((req, method) => {
      const parts = Array.from({ length: produced }, (_, i) => ({ text: `c${i} ` }));
      const snapshot = method === 'SubscribeToTask' ? [result(req, { task: task('TASK_STATE_WORKING', produced > 0 ? [{ artifactId: 'a', parts }] : undefined) })] : [result(req, { task: task() })];
      const i = produced++;
      const chunk = result(req, { artifactUpdate: { taskId: 'task-1', contextId: 'ctx-1', artifact: { artifactId: 'a', parts: [{ text: `c${i} ` }] }, append: i > 0 } });
      if (i === CHUNKS - 1) return { sse: [...snapshot, chunk, result(req, { statusUpdate: { taskId: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } } })] };
      return { sse: [...snapshot, chunk, ...(i % 2 === 1 ? [internal(req)] : [])] };
    });
  }

  it('a stream that brings a new chunk on every connection completes across twelve drops with maxAttempts 2', async () => {
    const agent = await chunkyAgent();
    const client = await connect(agent, { retry: { ...fast, maxAttempts: 2 }, circuitBreaker: false });
    const events = await all(client.stream('hi', { timeouts: { totalMs: 30_000 } }));
    const last = events.at(-1);
    expect(last?.error).toBeUndefined();
    expect(last?.state).toBe('completed');
    expect(last?.text).toBe(Array.from({ length: CHUNKS }, (_, i) => `c${i} `).join(''));
    expect(rpcCalls(agent)).toEqual(['SendStreamingMessage', ...Array(CHUNKS - 1).fill('SubscribeToTask')]);
  });

  it('a live Task re-sent unchanged is not news: the rounds still count', async () => {
    // Every connection re-sends the same Task live (not as a snapshot) and fails: nothing moves on.
    const agent = await agentWith((req) => ({ sse: [result(req, { task: task() }), result(req, { task: task() }), internal(req)] }));
    const client = await connect(agent, { retry: { ...fast, maxAttempts: 3 }, circuitBreaker: false });
    const { error } = await failure(client.sendStreamingMessage(hi));
    expect(isA2AClientError(error) && error.code).toBe(-32603);
    expect(rpcCalls(agent)).toHaveLength(3);
  });
});
