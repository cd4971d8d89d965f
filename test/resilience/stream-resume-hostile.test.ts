/**
 * Stream resumption against agents that bend the spec, on a real loopback server (v1.0 JSON-RPC, a
 * hand-written agent so every byte is ours to choose):
 * - a resubscribe that taps the live queue without sending the Task snapshot first (some SDK
 *   versions do): what happened meanwhile is unknown, so the client reads the task (polls) instead
 *   of trusting the live events — the text is exact;
 * - a resubscribe answered TaskNotFound because the task ended and its live queue is gone: the task
 *   is read, not given up on;
 * - a retryable error frame in the middle of a stream (`-32603`, `data.retryable: true`): resumed
 *   like a drop; a fatal one ends the stream and says it is not retryable.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type ResilienceEvent, type StreamEvent } from '../../src/index.js';
import { collect, iterationError, uniqueName } from '../client/harness.js';

const TOKENS = ['la', 'la', 'la', ' ', 'la', 'la', 'la', '.'];
const FINAL = TOKENS.join('');
/** Tokens the send delivers before it fails, and tokens the agent produces while the client is away. */
const SENT = 3;
const LOST = 2;

type Subscribe = 'snapshot' | 'no-snapshot' | 'not-found';
type SendEnd = 'drop' | 'retryable-frame' | 'fatal-frame';

/** A v1.0 JSON-RPC agent with one task whose answer grows token by token. */
class HostileAgent {
  /** Tokens the task holds now. */
  applied = 0;
  completed = false;
  readonly calls: string[] = [];
  #server: Server | undefined;
  url = '';

  constructor(
    readonly name: string,
    readonly sendEnd: SendEnd,
    readonly subscribe: Subscribe,
  ) {}

  async start(): Promise<void> {
    this.#server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  #task(): Record<string, unknown> {
    const artifacts = this.applied === 0 ? [] : [{ artifactId: 'answer', parts: [{ text: TOKENS.slice(0, this.applied).join('') }] }];
    return { id: 't1', contextId: 'c1', status: { state: this.completed ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_WORKING' }, artifacts };
  }

  #token(i: number): Record<string, unknown> {
    this.applied = i + 1;
    return { artifactUpdate: { taskId: 't1', contextId: 'c1', artifact: { artifactId: 'answer', parts: [{ text: TOKENS[i] }] }, ...(i > 0 ? { append: true } : {}) } };
  }

  #finishLive(frame: (result: unknown) => void): void {
    for (let i = this.applied; i < TOKENS.length; i++) frame(this.#token(i));
    this.completed = true;
    frame({ statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    if (req.url === '/.well-known/agent-card.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: this.name, supportedInterfaces: [{ url: `${this.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: { streaming: true } }));
      return;
    }
    const { id, method } = JSON.parse(body) as { id: number; method: string };
    this.calls.push(method);
    const sse = (): ((result: unknown) => void) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return (result) => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
    };
    if (method === 'SendStreamingMessage') {
      const frame = sse();
      frame({ task: { ...this.#task(), status: { state: 'TASK_STATE_SUBMITTED' } } });
      for (let i = 0; i < SENT; i++) frame(this.#token(i));
      // The agent goes on while the client is away.
      const lost = (): void => {
        for (let i = SENT; i < SENT + LOST; i++) this.#token(i);
      };
      if (this.sendEnd === 'drop') {
        lost();
        // The frames written so far reach the client, then the connection drops.
        res.write('', () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      }
      const error = this.sendEnd === 'retryable-frame' ? { code: -32603, message: 'worker restarted', data: { retryable: true } } : { code: -32602, message: 'bad params' };
      res.end(`event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
      lost();
      return;
    }
    if (method === 'SubscribeToTask') {
      if (this.subscribe === 'not-found') {
        this.#finishLive(() => undefined);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32001, message: 'Task not found: t1' } }));
        return;
      }
      const frame = sse();
      if (this.subscribe === 'snapshot') frame({ task: this.#task() });
      this.#finishLive(frame);
      res.end();
      return;
    }
    if (method === 'GetTask') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: this.#task() }));
      return;
    }
    res.writeHead(404).end();
  }
}

const agents: HostileAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});

async function connect(sendEnd: SendEnd, subscribe: Subscribe, onEvent?: (e: ResilienceEvent) => void): Promise<{ agent: HostileAgent; client: A2AClient }> {
  const agent = new HostileAgent(uniqueName('hostile-resume'), sendEnd, subscribe);
  await agent.start();
  agents.push(agent);
  const client = await A2AClient.connect(agent.url, { retry: { baseDelayMs: 5, maxDelayMs: 20 }, circuitBreaker: false, ...(onEvent ? { onEvent } : {}) });
  return { agent, client };
}

/** The answer a protocol-level caller rebuilds with the append rule. */
function answerOf(events: readonly StreamEvent[]): string {
  let text = '';
  for (const e of events) {
    if (e.kind === 'task') text = (e.artifacts ?? []).flatMap((a) => a.parts).map((p) => (p.kind === 'text' ? p.text : '')).join('');
    if (e.kind === 'artifact-update') text = (e.append === true ? text : '') + e.artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
  }
  return text;
}

const go = { message: { parts: [{ kind: 'text' as const, text: 'go' }] } };

describe('resuming against agents that bend the spec (loopback, v1.0 JSON-RPC)', () => {
  it('a resubscribe without the Task snapshot first: the client reads the task instead; exact text, nothing lost', async () => {
    const { agent, client } = await connect('drop', 'no-snapshot');
    try {
      const events = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
      expect(answerOf(events)).toBe(FINAL);
      expect(events.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' } });
      expect(agent.calls.filter((m) => m === 'SubscribeToTask')).toHaveLength(1);
      expect(agent.calls).toContain('GetTask');
      agent.applied = 0;
      agent.completed = false;
      const converted = await collect(client.stream('go', { timeouts: { totalMs: 5_000 } }));
      expect(converted.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: FINAL });
    } finally {
      await client.close();
    }
  });

  it('a resubscribe answered TaskNotFound (the task ended meanwhile): the task is read; exact text', async () => {
    const { agent, client } = await connect('drop', 'not-found');
    try {
      const events = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
      expect(answerOf(events)).toBe(FINAL);
      expect(agent.calls.filter((m) => m === 'GetTask').length).toBeGreaterThanOrEqual(1);
      expect(agent.calls.filter((m) => m === 'SendStreamingMessage')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('a retryable error frame mid-stream is resumed like a drop; the send is not repeated', async () => {
    const seen: ResilienceEvent[] = [];
    const { agent, client } = await connect('retryable-frame', 'snapshot', (e) => seen.push(e));
    try {
      const events = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
      expect(answerOf(events)).toBe(FINAL);
      expect(seen.filter((e) => e.type === 'resubscribe').map((e) => e.type === 'resubscribe' && e.reason)).toEqual(['json-rpc']);
      expect(agent.calls.filter((m) => m === 'SendStreamingMessage')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('a fatal error frame mid-stream ends the stream with it, marked not retryable; nothing is resubscribed', async () => {
    const { agent, client } = await connect('fatal-frame', 'snapshot');
    try {
      const error = await iterationError(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
      expect(isA2AClientError(error) && [error.kind, error.code, error.retryable]).toEqual(['json-rpc', -32602, false]);
      expect(agent.calls).not.toContain('SubscribeToTask');
    } finally {
      await client.close();
    }
  });
});
