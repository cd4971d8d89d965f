/**
 * Lost sends, generated: a fault point (none, the request cut before the agent got it, cut after it
 * ran it, the stream cut after its first event) × binding (JSON-RPC, REST, gRPC) × API (blocking
 * `sendMessage`, `client.stream()`), against the official `@a2a-js/sdk` servers behind a cutting
 * proxy (v1.0, so every lost send can be looked up). The properties: the agent runs each message at
 * most once — exactly once unless the caller got an error — and whenever the agent completed it within
 * the deadline, the caller got the completed answer. The `harness` block checks the cutting proxy
 * itself on raw sockets.
 */
import { randomUUID } from 'node:crypto';
import { createServer, Socket, type Server } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type AgentEvent, type ClientOptions, type ResilienceEvent, type Task } from '../../src/index.js';
import type { ProtocolBinding } from '../../src/protocol/model.js';
import { startCuttingProxy, type CuttingProxy, type CutRule } from '../helpers/cutting-proxy.js';
import {
  startGrpcAgentBehindProxy, startHttpAgentBehindProxy, timesReceived, waitUntil, type AgentBehindProxy,
} from '../helpers/lost-send-agents.js';

type Fault = 'none' | 'before-send' | 'after-send' | 'mid-stream';
type Api = 'sendMessage' | 'stream';
const BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;
const DEADLINE_MS = 8_000;

let http: AgentBehindProxy;
let grpc: AgentBehindProxy;
const clients = new Map<ProtocolBinding, A2AClient>();
const events: ResilienceEvent[] = [];

beforeAll(async () => {
  http = await startHttpAgentBehindProxy();
  grpc = await startGrpcAgentBehindProxy();
  for (const binding of BINDINGS) {
    const options: ClientOptions = {
      protocol: { version: '1.0', binding },
      retry: { baseDelayMs: 5, budget: false },
      timeouts: { totalMs: DEADLINE_MS },
      onEvent: (e) => events.push(e),
    };
    clients.set(binding, await A2AClient.connect(binding === 'GRPC' ? grpc.baseUrl : http.baseUrl, options));
  }
});
afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await http?.close();
  await grpc?.close();
});

const textOf = (parts: ReadonlyArray<{ kind: string; text?: string }> | undefined): string =>
  (parts ?? []).map((p) => (p.kind === 'text' ? p.text ?? '' : '')).join('');

interface Outcome {
  /** The completed answer's text, when the caller got it. */
  answer?: string;
  /** What the caller got instead. */
  error?: unknown;
  /** When the caller got either. */
  doneAt: number;
}

async function viaSend(client: A2AClient, text: string): Promise<Outcome> {
  try {
    const result = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text }] } });
    const task = result as Task;
    const answer = result.kind === 'task' && task.status.state === 'completed' ? (task.artifacts ?? []).map((a) => textOf(a.parts)).join('') : undefined;
    return { ...(answer !== undefined ? { answer } : { error: new Error(`not a completed task: ${JSON.stringify(result)}`) }), doneAt: Date.now() };
  } catch (error) {
    return { error, doneAt: Date.now() };
  }
}

async function viaStream(client: A2AClient, text: string, firstEvent: () => void): Promise<Outcome> {
  const seen: AgentEvent[] = [];
  try {
    for await (const event of client.stream(text)) {
      if (seen.length === 0) firstEvent();
      seen.push(event);
    }
  } catch (error) {
    return { error, doneAt: Date.now() };
  }
  const last = seen.at(-1);
  if (last?.error !== undefined) return { error: last.error, doneAt: Date.now() };
  if (last?.done === true && last.state === 'completed' && last.text !== undefined) return { answer: last.text, doneAt: Date.now() };
  return { error: new Error(`no completed answer: ${JSON.stringify(seen.map((e) => [e.object, e.state, e.text]))}`), doneAt: Date.now() };
}

const describeError = (error: unknown): string =>
  isA2AClientError(error) ? `${error.kind} ambiguous=${String(error.ambiguous)}: ${error.message}` : JSON.stringify(error) ?? String(error);

describe('lost sends, generated', () => {
  it('the agent runs each message at most once (once unless the caller got an error), and a completed task reaches the caller', async () => {
    const scenario = fc.record({
      binding: fc.constantFrom(...BINDINGS),
      api: fc.constantFrom<Api>('sendMessage', 'stream'),
      fault: fc.constantFrom<Fault>('none', 'before-send', 'after-send', 'mid-stream'),
      workMs: fc.constantFrom(0, 150, 400),
    }).map((s) => (s.fault === 'mid-stream' ? { ...s, api: 'stream' as const, workMs: Math.max(s.workMs, 300) } : s));

    await fc.assert(
      fc.asyncProperty(scenario, async ({ binding, api, fault, workMs }) => {
        const agent = binding === 'GRPC' ? grpc : http;
        const client = clients.get(binding) as A2AClient;
        const job = `job-${randomUUID()}`;
        const text = `after ${workMs} ${job}`;
        events.length = 0;
        let firstEventSeen = false;
        const cutsBefore = agent.proxy.cuts;
        if (fault !== 'none') {
          const rule: CutRule = fault === 'before-send'
            ? { marker: job, when: 'before' }
            : fault === 'after-send'
              ? { marker: job, when: 'after', afterForward: () => waitUntil(() => timesReceived(agent.received, text) >= 1) }
              : { marker: job, when: 'mid-response', afterForward: () => waitUntil(() => firstEventSeen) };
          agent.proxy.cutOnce(rule);
        }
        const started = Date.now();
        const outcome = api === 'sendMessage' ? await viaSend(client, text) : await viaStream(client, text, () => { firstEventSeen = true; });
        // A wrong repeat would reach the agent within this wait.
        await new Promise((r) => setTimeout(r, 250));
        const runs = timesReceived(agent.received, text);
        const context = `${binding} ${api} ${fault} work=${workMs}: runs=${runs} cuts=${agent.proxy.cuts - cutsBefore} ` +
          `lookups=${JSON.stringify(events.filter((e) => e.type === 'send-lookup').map((e) => e.outcome))} ` +
          `${outcome.error !== undefined ? `error=${describeError(outcome.error)}` : `answer=${outcome.answer ?? ''}`}`;
        expect(runs, context).toBeLessThanOrEqual(1);
        if (fault !== 'none') expect(agent.proxy.cuts - cutsBefore, context).toBe(1);
        if (outcome.error === undefined) {
          expect(runs, context).toBe(1);
          expect(outcome.answer, context).toBe(job);
        } else {
          // The agent completes a message `workMs` after it got it: had it got it, it completed it
          // within the deadline, and the caller must have had the answer.
          const completedInTime = runs === 1 && outcome.doneAt - started < DEADLINE_MS - workMs;
          expect(completedInTime, context).toBe(false);
        }
        const outcomes = events.filter((e) => e.type === 'send-lookup').map((e) => e.outcome);
        // v1.0 agents answer the lookup: never `unknown`; a send that was not lost is not looked up.
        expect(outcomes, context).not.toContain('unknown');
        if (fault === 'none') expect(outcomes, context).toEqual([]);
        if (fault === 'before-send') expect(outcomes, context).toEqual(['absent']);
        if (fault === 'after-send') expect(outcomes, context).toEqual(['found']);
      }),
      { numRuns: 15, endOnFailure: true },
    );
  }, 60_000);
});

describe('harness: the cutting proxy', () => {
  let target: Server;
  let targetPort = 0;
  /** What the target got, per connection. */
  const got: string[] = [];
  let proxy: CuttingProxy;

  beforeAll(async () => {
    // Echoes every chunk back as `ack:<chunk>` and records it.
    target = createServer((socket) => {
      const index = got.push('') - 1;
      socket.on('data', (chunk: Buffer) => {
        got[index] += chunk.toString('utf8');
        socket.write(`ack:${chunk.toString('utf8')}`);
      });
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const address = target.address();
    targetPort = typeof address === 'object' && address !== null ? address.port : 0;
    proxy = await startCuttingProxy(targetPort);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  /** Connects through the proxy; collects what comes back and whether the socket closed. */
  async function dial(): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
    const socket = new Socket();
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.connect(proxy.port, '127.0.0.1', resolve));
    return { socket, received: () => received, closed };
  }

  const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  it('relays both ways untouched when nothing is armed', async () => {
    const before = got.length;
    const c = await dial();
    c.socket.write('hello');
    await waitUntil(() => c.received() === 'ack:hello');
    expect(got[before]).toBe('hello');
    c.socket.destroy();
  });

  it('before: finds the marker split across chunks and cuts without forwarding the chunk that completes it', async () => {
    const before = got.length;
    proxy.cutOnce({ marker: 'MARK-123', when: 'before' });
    const cuts = proxy.cuts;
    const c = await dial();
    c.socket.write('head MARK');
    await waitUntil(() => got[before] === 'head MARK');
    c.socket.write('-123 tail');
    await c.closed;
    await proxy.cutDone();
    expect(proxy.cuts).toBe(cuts + 1);
    await pause(50);
    expect(got[before]).toBe('head MARK');
    // Later occurrences pass.
    const d = await dial();
    d.socket.write('again MARK-123');
    await waitUntil(() => d.received() === 'ack:again MARK-123');
    d.socket.destroy();
  });

  it('after: forwards the request, drops the answer, cuts once afterForward settles', async () => {
    const before = got.length;
    let released!: () => void;
    const gate = new Promise<void>((r) => (released = r));
    proxy.cutOnce({ marker: 'MARK-after', when: 'after', afterForward: () => gate });
    const c = await dial();
    c.socket.write('x MARK-after y');
    await waitUntil(() => got[before] === 'x MARK-after y');
    c.socket.write(' more');
    await waitUntil(() => got[before] === 'x MARK-after y more');
    await pause(50);
    expect(c.received()).toBe('');
    released();
    await c.closed;
    expect(c.received()).toBe('');
  });

  it('mid-response: forwards the request and relays the answer until afterForward settles, then cuts', async () => {
    const before = got.length;
    let released!: () => void;
    const gate = new Promise<void>((r) => (released = r));
    proxy.cutOnce({ marker: 'MARK-mid', when: 'mid-response', afterForward: () => gate });
    const c = await dial();
    c.socket.write('MARK-mid');
    await waitUntil(() => c.received() === 'ack:MARK-mid');
    expect(got[before]).toBe('MARK-mid');
    released();
    await c.closed;
  });
});
