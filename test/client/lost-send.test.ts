/**
 * "A send whose fate is unknown is found out" (`retry.lookUpSends`), against the official
 * `@a2a-js/sdk` server on loopback with a cutting TCP proxy in front (see
 * `../helpers/cutting-proxy.ts`): a send lost `after` the agent got it is found with `ListTasks` and
 * followed to its answer; a send lost `before` is absent and repeated with the same `messageId`; when
 * the agent cannot tell (v0.3, a refused lookup, the option off) the `ambiguous` error stands and
 * nothing is repeated. In every case the agent runs the message at most once.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient, A2AClientError, isA2AClientError,
  type AgentEvent, type ClientOptions, type ResilienceEvent, type SendResult, type StreamEvent, type Task,
} from '../../src/index.js';
import type { ProtocolBinding, ProtocolVersion } from '../../src/protocol/model.js';
import {
  startGrpcAgentBehindProxy, startHttpAgentBehindProxy, timesReceived, waitUntil,
  type AgentBehindProxy, type HttpAgentOptions,
} from '../helpers/lost-send-agents.js';
import type { CutRule } from '../helpers/cutting-proxy.js';

type SendLookup = Extract<ResilienceEvent, { type: 'send-lookup' }>;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function agentFor(binding: ProtocolBinding, opts: HttpAgentOptions = {}): Promise<AgentBehindProxy> {
  const agent = binding === 'GRPC' ? await startGrpcAgentBehindProxy() : await startHttpAgentBehindProxy({ ...opts, preferredBinding: binding === 'HTTP+JSON' ? 'HTTP+JSON' : 'JSONRPC' });
  open.push(agent);
  return agent;
}

interface Connected {
  client: A2AClient;
  events: ResilienceEvent[];
  lookups: () => SendLookup[];
}

async function connect(agent: AgentBehindProxy, binding: ProtocolBinding, extra: ClientOptions = {}, version: ProtocolVersion = '1.0'): Promise<Connected> {
  const events: ResilienceEvent[] = [];
  const client = await A2AClient.connect(agent.baseUrl, {
    protocol: { version, binding },
    retry: { baseDelayMs: 5, budget: false },
    timeouts: { totalMs: 15_000 },
    ...extra,
    onEvent: (e) => events.push(e),
  });
  open.push(client);
  return { client, events, lookups: () => events.filter((e): e is SendLookup => e.type === 'send-lookup') };
}

/** A marker no other request carries. */
const newJob = (): string => `job-${randomUUID()}`;

/** Cut the request carrying `job`; `after`: once the agent got `text`. */
function cut(agent: AgentBehindProxy, job: string, when: CutRule['when'], text: string): void {
  agent.proxy.cutOnce({
    marker: job, when,
    afterForward: () => waitUntil(() => timesReceived(agent.received, text) >= 1, 5_000, `agent got "${text}"`),
  });
}

const send = (text: string, messageId = randomUUID()) => ({ message: { messageId, role: 'user' as const, parts: [{ kind: 'text' as const, text }] } });

function expectTask(result: SendResult | undefined): Task {
  expect(result?.kind).toBe('task');
  if (result?.kind !== 'task') throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

const textOf = (parts: ReadonlyArray<{ kind: string; text?: string }> | undefined): string =>
  (parts ?? []).map((p) => (p.kind === 'text' ? p.text ?? '' : '')).join('');

/** The completed task's artifact text. */
function expectCompleted(result: SendResult, answer: string): Task {
  const task = expectTask(result);
  expect(task.status.state).toBe('completed');
  expect((task.artifacts ?? []).map((a) => textOf(a.parts)).join('')).toBe(answer);
  return task;
}

async function rejection(promise: Promise<unknown>): Promise<A2AClientError> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  expect(isA2AClientError(error)).toBe(true);
  if (!(error instanceof A2AClientError)) throw new Error(`expected an A2AClientError, got ${String(error)}`);
  return error;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The stream's final converted event: the completed answer holding `answer`, nothing after it. */
function expectCompletedEvents(events: readonly AgentEvent[], answer: string): void {
  const last = events.at(-1);
  expect(last, JSON.stringify(events.map((e) => ({ object: e.object, state: e.state, text: e.text, error: e.error })))).toMatchObject({ object: 'chat.completion', done: true, state: 'completed' });
  expect(last?.text).toContain(answer);
  expect(last?.error).toBeUndefined();
  expect(events.filter((e) => e.done)).toHaveLength(1);
  expect(events.filter((e) => e.error !== undefined)).toEqual([]);
}

/** The raw stream ended with the task completed and carried the answer. */
function expectCompletedStream(events: readonly StreamEvent[], answer: string): void {
  const last = events.at(-1);
  const state = last?.kind === 'task' ? last.status.state : last?.kind === 'status-update' ? last.status.state : undefined;
  expect(state, JSON.stringify(events.map((e) => e.kind))).toBe('completed');
  const texts = events.flatMap((e) => {
    if (e.kind === 'artifact-update') return [textOf(e.artifact.parts)];
    if (e.kind === 'task') return (e.artifacts ?? []).map((a) => textOf(a.parts));
    return [];
  });
  expect(texts).toContain(answer);
}

/** Gives a wrongly repeated send time to reach the agent before counting. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 300));

describe.each(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const)('a lost send on v1.0 %s', (binding) => {
  it('found: a blocking send lost after the agent got it resolves with the completed task; the agent ran it once', async () => {
    const agent = await agentFor(binding);
    const { client, lookups, events } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    const params = send(text);
    cut(agent, job, 'after', text);
    const task = expectCompleted(await client.sendMessage(params), job);
    expect(agent.proxy.cuts).toBe(1);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'found', method: 'sendMessage', messageId: params.message.messageId, taskId: task.id })]);
    expect(lookups()[0]?.requests).toBeGreaterThanOrEqual(1);
    // Found, not repeated.
    expect(events.filter((e) => e.type === 'retry' && e.method === 'sendMessage')).toEqual([]);
  });

  it('found while still working: the blocking send waits for the task to settle, then resolves with it', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `after 600 ${job}`;
    cut(agent, job, 'after', text);
    const task = expectCompleted(await client.sendMessage(send(text)), job);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'found', taskId: task.id })]);
  });

  it('absent: a send lost before the agent got it is repeated with the same messageId; the agent ran it once', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    const params = send(text);
    cut(agent, job, 'before', text);
    const task = expectCompleted(await client.sendMessage(params), job);
    expect(agent.proxy.cuts).toBe(1);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'absent', method: 'sendMessage', messageId: params.message.messageId })]);
    // The repeat carried the same messageId: the task's history holds it.
    const read = await client.getTask({ id: task.id });
    expect((read.history ?? []).filter((m) => m.role === 'user').map((m) => m.messageId)).toEqual([params.message.messageId]);
  });

  it.each([
    ['found on a stream: client.stream() lost after the agent got it ends with the completed answer', 'after', 'after 300', 'found'],
    ['found on a stream, already completed when looked up: it ends with the completed answer (read, not subscribed)', 'after', 'echo', 'found'],
    ['absent on a stream: client.stream() lost before the agent got it is repeated', 'before', 'echo', 'absent'],
  ] as const)('%s; the agent ran it once', async (_, when, script, outcome) => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `${script} ${job}`;
    cut(agent, job, when, text);
    expectCompletedEvents(await collect(client.stream(text)), job);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome, method: 'sendStreamingMessage' })]);
  });

  it('a stream cut after its first event is resumed (no lookup needed: the task is known); the agent ran it once', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `after 400 ${job}`;
    let first = false;
    agent.proxy.cutOnce({ marker: job, when: 'mid-response', afterForward: () => waitUntil(() => first) });
    const events: AgentEvent[] = [];
    for await (const event of client.stream(text)) {
      first = true;
      events.push(event);
    }
    expect(agent.proxy.cuts).toBe(1);
    expectCompletedEvents(events, job);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().filter((e) => e.outcome !== 'found')).toEqual([]);
  });

});

describe('a lost send on v1.0 JSON-RPC: more cases', () => {
  const binding = 'JSONRPC' as const;

  it('slow blocking send: a read timeout while the agent works is found, and the call resolves with the completed task', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding, { timeouts: { readMs: 400, totalMs: 10_000 } });
    const job = newJob();
    const text = `after 1500 ${job}`;
    const started = performance.now();
    expectCompleted(await client.sendMessage(send(text)), job);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_400);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().map((e) => e.outcome)).toContain('found');
    expect(lookups().map((e) => e.outcome)).not.toContain('absent');
  });

  it('found on sendStreamingMessage (echo, already completed when looked up): the events end with the completed task', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    const params = send(text);
    cut(agent, job, 'after', text);
    expectCompletedStream(await collect(client.sendStreamingMessage(params)), job);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'found', method: 'sendStreamingMessage', messageId: params.message.messageId })]);
  });

  it('absent on sendStreamingMessage: the events end with the completed task; the agent ran it once', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `after 100 ${job}`;
    cut(agent, job, 'before', text);
    expectCompletedStream(await collect(client.sendStreamingMessage(send(text))), job);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'absent', method: 'sendStreamingMessage' })]);
  });

  it('found with client.invoke(): the events end with the completed answer', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'after', text);
    expectCompletedEvents(await client.invoke(text), job);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().map((e) => e.outcome)).toEqual(['found']);
  });

  it('a message with a contextId is found too (the lookup filtered by that context)', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    const contextId = randomUUID();
    const params = { message: { ...send(text).message, contextId } };
    cut(agent, job, 'after', text);
    const task = expectCompleted(await client.sendMessage(params), job);
    expect(task.contextId).toBe(contextId);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'found', taskId: task.id })]);
  });

  it('cannot tell (v0.3 agent): the ambiguous error stands, nothing is repeated', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding, {}, '0.3');
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'after', text);
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(true);
    expect(error.method).toBe('sendMessage');
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().filter((e) => e.outcome !== 'unknown')).toEqual([]);
  });

  it('cannot tell (v0.3 agent), lost before: the ambiguous error stands, nothing is repeated (the agent never ran it)', async () => {
    const agent = await agentFor(binding);
    const { client } = await connect(agent, binding, {}, '0.3');
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'before', text);
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(true);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(0);
  });

  it.each(['JSONRPC', 'HTTP+JSON'] as const)('cannot tell (the agent refuses ListTasks, %s): ambiguous, the lookup\'s failure is in attempts, nothing repeated', async (over) => {
    const agent = await agentFor(over, { refuseListTasks: true });
    const { client, lookups } = await connect(agent, over);
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'after', text);
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(true);
    expect(error.method).toBe('sendMessage');
    expect(agent.refused).toBeGreaterThanOrEqual(1);
    expect(error.attempts.map((a) => a.method)).toContain('listTasks');
    // The lookup's own failure: the front's 403.
    expect(error.attempts.find((a) => a.method === 'listTasks')?.status).toBe(403);
    expect(error.attempts.at(-1)?.method).toBe('listTasks');
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'unknown', method: 'sendMessage' })]);
  });

  it('cannot tell on a stream (the agent refuses ListTasks): the stream ends with an ambiguous error, nothing repeated', async () => {
    const agent = await agentFor(binding, { refuseListTasks: true });
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'after', text);
    const events = await collect(client.stream(text));
    expect(events.at(-1)?.error).toMatchObject({ ambiguous: true });
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().map((e) => e.outcome)).toEqual(['unknown']);
  });

  it.each([
    ['client option retry: { lookUpSends: false }', { retry: { baseDelayMs: 5, budget: false, lookUpSends: false } }, {}],
    ['per-call retry: { lookUpSends: false }', {}, { retry: { lookUpSends: false } }],
    ['client option retry: false', { retry: false }, {}],
  ] as const)('%s: the ambiguous error as before, no lookup', async (_name, clientOptions, callOptions) => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding, clientOptions as ClientOptions);
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'after', text);
    const error = await rejection(client.sendMessage(send(text), callOptions));
    expect(error.ambiguous).toBe(true);
    expect(error.attempts.map((a) => a.method)).not.toContain('listTasks');
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups()).toEqual([]);
  });

  it('lookUpSends: false, lost before: ambiguous, not repeated (the agent never ran it)', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding, { retry: { baseDelayMs: 5, budget: false, lookUpSends: false } });
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'before', text);
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(true);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(0);
    expect(lookups()).toEqual([]);
  });

  it('a message continuing a task, lost after the agent got it, is found (GetTask) and followed to the task\'s next state', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const asked = expectTask(await client.sendMessage(send('ask')));
    expect(asked.status.state).toBe('input-required');
    const job = newJob();
    const params = { message: { ...send(job).message, taskId: asked.id, contextId: asked.contextId } };
    cut(agent, job, 'after', job);
    const task = expectTask(await client.sendMessage(params));
    expect(task.id).toBe(asked.id);
    expect(task.status.state).toBe('input-required');
    expect(textOf(task.status.message?.parts)).toBe('question 2 of 2: which day?');
    await settle();
    expect(timesReceived(agent.received, job)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'found', taskId: asked.id, messageId: params.message.messageId, requests: 1 })]);
  });

  it('a message continuing a task, lost before the agent got it, is absent (GetTask) and repeated once', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const asked = expectTask(await client.sendMessage(send('ask')));
    const job = newJob();
    const params = { message: { ...send(job).message, taskId: asked.id, contextId: asked.contextId } };
    cut(agent, job, 'before', job);
    const task = expectTask(await client.sendMessage(params));
    expect(task.status.state).toBe('input-required');
    await settle();
    expect(timesReceived(agent.received, job)).toBe(1);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'absent', messageId: params.message.messageId, requests: 1 })]);
    expect(lookups()[0]?.taskId).toBeUndefined();
  });

  it('more than one page of recent tasks: absence cannot be proven, the ambiguous error stands, nothing is sent again', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    for (let i = 0; i < 105; i++) await client.sendMessage(send(`echo filler ${i}`));
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'before', text);
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(true);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(0);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'unknown' })]);
    expect(lookups()[0]?.requests).toBeGreaterThanOrEqual(2);
  });

  it('an agent seen answering a send with a bare message: absence cannot be proven, nothing is sent again', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    expect(await client.sendMessage(send('message hi there'))).toMatchObject({ kind: 'message' });
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'before', text);
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(true);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(0);
    expect(lookups()).toEqual([expect.objectContaining({ outcome: 'unknown' })]);
  });

  it('a repeat lost before the agent got it too is looked up again and repeated again; the agent ran it once', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    const text = `echo ${job}`;
    const params = send(text);
    cut(agent, job, 'before', text);
    void agent.proxy.cutDone().then(() => cut(agent, job, 'before', text));
    expectCompleted(await client.sendMessage(params), job);
    expect(agent.proxy.cuts).toBe(2);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().map((e) => [e.outcome, e.messageId])).toEqual([['absent', params.message.messageId], ['absent', params.message.messageId]]);
  });

  it('proven absent but no attempt left (maxAttempts: 2, both lost before): the error says it is not ambiguous, the agent never ran it', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding, { retry: { baseDelayMs: 5, budget: false, maxAttempts: 2 } });
    const job = newJob();
    const text = `echo ${job}`;
    cut(agent, job, 'before', text);
    void agent.proxy.cutDone().then(() => cut(agent, job, 'before', text));
    const error = await rejection(client.sendMessage(send(text)));
    expect(error.ambiguous).toBe(false);
    await settle();
    expect(agent.proxy.cuts).toBe(2);
    expect(timesReceived(agent.received, text)).toBe(0);
    expect(lookups().map((e) => e.outcome)).toEqual(['absent', 'absent']);
  });

  it('the deadline ends while the found task still works: an error, the agent ran it once, nothing repeated', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding, { timeouts: { readMs: 300, totalMs: 900 } });
    const job = newJob();
    const text = `after 3000 ${job}`;
    const started = performance.now();
    const error = await rejection(client.sendMessage(send(text)));
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(error.kind).toMatch(/deadline-exceeded|read-timeout/);
    await settle();
    expect(timesReceived(agent.received, text)).toBe(1);
    expect(lookups().map((e) => e.outcome)).not.toContain('absent');
  });

  it('a send that is not cut is not looked up', async () => {
    const agent = await agentFor(binding);
    const { client, lookups } = await connect(agent, binding);
    const job = newJob();
    expectCompleted(await client.sendMessage(send(`echo ${job}`)), job);
    expect(timesReceived(agent.received, `echo ${job}`)).toBe(1);
    expect(agent.proxy.cuts).toBe(0);
    expect(lookups()).toEqual([]);
  });
});
