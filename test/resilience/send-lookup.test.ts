/**
 * A send whose fate is unknown is looked up before its error reaches the caller (`lost-send.ts`,
 * `send-lookup.ts`): the rules that decide found / absent / cannot tell, against a hand-written v1.0
 * JSON-RPC agent on loopback that keeps a task ledger and can cut a send's connection before or after
 * it ran. (The same against the official server, every binding: test/client/lost-send*.test.ts.)
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rejection } from '../helpers/rejection.js';
import { A2AClient, type ClientOptions, type ResilienceEvent, type SendLookupEvent } from '../../src/index.js';

type Json = Record<string, unknown>;

interface Ledger {
  url: string;
  /** Every message the agent ran, by messageId (a repeat counts twice). */
  runs: Map<string, number>;
  /** JSON-RPC methods received, in order. */
  methods: string[];
  /** What the next send's connection suffers: cut before the agent runs it, or after. */
  cut: Array<'before' | 'after'>;
  /** How the agent answers a send: a task (default), or a bare message (no task kept). */
  answer: 'task' | 'message';
  /** ListTasks: answer normally, refuse with HTTP 403, drop histories, or claim another page. */
  list: 'ok' | 'refuse' | 'no-history' | 'agent-history' | 'more-pages' | 'malformed' | 'hang';
  /** Tasks the agent lists besides those sends started. */
  others: Json[];
  close(): Promise<void>;
}

const ledgers: Ledger[] = [];
afterEach(async () => {
  await Promise.all(ledgers.splice(0).map((l) => l.close()));
});

const completed = (id: string, message: Json): Json => ({
  id,
  contextId: (message.contextId as string | undefined) ?? `ctx-${id}`,
  status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() },
  history: [message],
  artifacts: [{ artifactId: 'a1', parts: [{ text: `done: ${String((message.parts as Json[])[0]?.text)}` }] }],
});

async function ledgerAgent(): Promise<Ledger> {
  const tasks = new Map<string, Json>();
  const ledger = { runs: new Map<string, number>(), methods: [] as string[], cut: [] as Array<'before' | 'after'>, answer: 'task', list: 'ok', others: [] as Json[] } as Omit<Ledger, 'url' | 'close'>;
  const server: Server = createServer((req, res) => void serve(req, res));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(card));
      return;
    }
    const rpc = JSON.parse(body) as { id: number; method: string; params: Json };
    ledger.methods.push(rpc.method);
    const reply = (result: unknown): void => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));
    };
    if (rpc.method === 'SendMessage' || rpc.method === 'SendStreamingMessage') {
      const message = rpc.params.message as Json;
      const cut = ledger.cut.shift();
      if (cut === 'before') return void res.socket?.destroy();
      const id = String(message.messageId);
      ledger.runs.set(id, (ledger.runs.get(id) ?? 0) + 1);
      const task = completed(`t-${id}`, message);
      if (ledger.answer === 'task') tasks.set(String(task.id), task);
      if (cut === 'after') return void res.socket?.destroy();
      const result = ledger.answer === 'task' ? { task } : { message: { messageId: `r-${id}`, role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } };
      if (rpc.method === 'SendMessage') return reply(result);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result })}\n\n`);
      return;
    }
    if (rpc.method === 'ListTasks') {
      if (ledger.list === 'hang') return; // never answers: the lookup's read timeout ends it
      if (ledger.list === 'malformed') return reply({ tasks: 'not a list', nextPageToken: 7 });
      if (ledger.list === 'refuse') {
        res.writeHead(403, { 'content-type': 'text/plain' });
        return void res.end('not yours');
      }
      const all = [...ledger.others, ...[...tasks.values()].filter((t) => rpc.params.contextId === undefined || t.contextId === rpc.params.contextId)];
      const agentOnly = (t: Json): Json => ({ ...t, history: [{ messageId: `a-${String(t.id)}`, role: 'ROLE_AGENT', parts: [{ text: 'working on it' }] }] });
      const listed = ledger.list === 'no-history' ? all.map(({ history: _h, ...t }) => t) : ledger.list === 'agent-history' ? all.map(agentOnly) : all;
      return reply({ tasks: rpc.params.pageToken === undefined ? listed : [], nextPageToken: ledger.list === 'more-pages' && rpc.params.pageToken === undefined ? 'p2' : '', pageSize: 100, totalSize: listed.length });
    }
    if (rpc.method === 'GetTask') {
      const task = tasks.get(String(rpc.params.id));
      if (task === undefined) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: { code: -32001, message: 'no such task' } }));
      }
      return reply(task);
    }
    if (rpc.method === 'SubscribeToTask') {
      // Every task here is terminal: refused, as A2A servers do (the client then reads it with GetTask).
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: { code: -32004, message: 'task is terminal' } }));
    }
    res.writeHead(404);
    res.end();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = {
    name: 'ledger',
    description: 'ledger agent',
    version: '1.0.0',
    supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: [] }],
  };
  const full: Ledger = Object.assign(ledger, {
    url,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  }) as Ledger;
  ledgers.push(full);
  return full;
}

async function connect(agent: Ledger, options: ClientOptions = {}): Promise<{ client: A2AClient; events: ResilienceEvent[] }> {
  const events: ResilienceEvent[] = [];
  const client = await A2AClient.connect(agent.url, { retry: { baseDelayMs: 5 }, onEvent: (e) => events.push(e), ...options });
  return { client, events };
}

const lookups = (events: ResilienceEvent[]): SendLookupEvent[] => events.filter((e): e is SendLookupEvent => e.type === 'send-lookup');
const send = (client: A2AClient, text: string, messageId = crypto.randomUUID(), extra: Json = {}) =>
  client.sendMessage({ message: { messageId, parts: [{ kind: 'text', text }], ...extra } });

describe('a unary send whose fate is unknown', () => {
  it('found: the agent ran it before the connection was cut — resolves with its task, run once, one lookup', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('after');
    const { client, events } = await connect(agent);
    const id = crypto.randomUUID();
    const result = await send(client, 'work', id);
    expect(result).toMatchObject({ kind: 'task', id: `t-${id}`, status: { state: 'completed' } });
    expect(agent.runs.get(id)).toBe(1);
    expect(lookups(events)).toEqual([expect.objectContaining({ outcome: 'found', taskId: `t-${id}`, messageId: id, method: 'sendMessage', requests: 1 })]);
    expect(agent.methods.filter((m) => m === 'SendMessage')).toHaveLength(1);
    await client.close();
  });

  it('absent: cut before the agent saw it — sent again with the same messageId, run exactly once', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('before');
    const { client, events } = await connect(agent);
    const id = crypto.randomUUID();
    const result = await send(client, 'work', id);
    expect(result).toMatchObject({ kind: 'task', id: `t-${id}` });
    expect(agent.runs.get(id)).toBe(1);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['absent']);
    expect(agent.methods).toEqual(['SendMessage', 'ListTasks', 'SendMessage']);
    await client.close();
  });

  it('a lookup the agent refuses: the ambiguous error stands, with the lookup failure last in attempts; nothing repeated', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('before');
    agent.list = 'refuse';
    const { client, events } = await connect(agent);
    const error = await rejection(send(client, 'work'));
    expect(error).toMatchObject({ ambiguous: true, method: 'sendMessage' });
    expect(error.attempts.at(-1)).toMatchObject({ kind: 'http', status: 403, method: 'listTasks' });
    expect(agent.methods.filter((m) => m === 'SendMessage')).toHaveLength(1);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['unknown']);
    await client.close();
  });

  it.each([
    ['malformed', 'invalid-response'],
    ['hang', 'read-timeout'],
  ] as const)('a %s ListTasks answer is a failed lookup: ambiguous, its failure (%s) last in attempts, nothing repeated', async (list, kind) => {
    const agent = await ledgerAgent();
    agent.cut.push('before');
    agent.list = list;
    const { client, events } = await connect(agent, { timeouts: { readMs: 300, totalMs: 5_000 }, retry: { baseDelayMs: 5, maxAttempts: 1 } });
    const error = await rejection(send(client, 'work'));
    expect(error.ambiguous).toBe(true);
    expect(error.attempts.at(-1)).toMatchObject({ kind, method: 'listTasks' });
    expect(agent.methods.filter((m) => m === 'SendMessage')).toHaveLength(1);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['unknown']);
    await client.close();
  });

  it.each([
    ['the listing has more pages', 'more-pages'],
    ['listed tasks come without their history', 'no-history'],
    ["listed tasks' histories hold only the agent's messages", 'agent-history'],
  ] as const)('cannot tell when %s: ambiguous, nothing repeated', async (_, list) => {
    const agent = await ledgerAgent();
    agent.cut.push('before');
    agent.list = list;
    agent.others.push({ id: 'other', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, history: [{ messageId: 'x', role: 'ROLE_USER', parts: [{ text: 'x' }] }] });
    const { client, events } = await connect(agent);
    const error = await rejection(send(client, 'work'));
    expect(error.ambiguous).toBe(true);
    expect(agent.methods.filter((m) => m === 'SendMessage')).toHaveLength(1);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['unknown']);
    await client.close();
  });

  it('cannot tell once the agent has answered a send with a bare message: a task-less run leaves nothing to find', async () => {
    const agent = await ledgerAgent();
    agent.answer = 'message';
    const { client, events } = await connect(agent);
    await send(client, 'hello');
    agent.cut.push('after');
    const id = crypto.randomUUID();
    const error = await rejection(send(client, 'again', id));
    expect(error.ambiguous).toBe(true);
    expect(agent.runs.get(id)).toBe(1);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['unknown']);
    await client.close();
  });

  it('a message that continues a task is looked up with GetTask: found in its history', async () => {
    const agent = await ledgerAgent();
    const { client, events } = await connect(agent);
    const first = await send(client, 'start');
    expect(first.kind).toBe('task');
    // The agent keeps the continuing message in the task the send names (as the official server does).
    agent.cut.push('after');
    const id = crypto.randomUUID();
    const error = await rejection(send(client, 'more', id, { taskId: 'no-such-task' }));
    // The task is unknown to the agent: GetTask fails, so it cannot tell.
    expect(error.ambiguous).toBe(true);
    expect(agent.methods.at(-1)).toBe('GetTask');
    expect(lookups(events).map((e) => e.outcome)).toEqual(['unknown']);
    await client.close();
  });

  it('retry.lookUpSends: false, and retry: false, keep the ambiguous error without a lookup', async () => {
    const agent = await ledgerAgent();
    for (const retry of [{ lookUpSends: false }, false] as const) {
      agent.cut.push('after');
      const { client, events } = await connect(agent, { retry });
      const error = await rejection(send(client, 'work'));
      expect(error.ambiguous).toBe(true);
      expect(lookups(events)).toEqual([]);
      await client.close();
    }
    expect(agent.methods).not.toContain('ListTasks');
  });

  it('absent with no attempt left (maxAttempts: 1): not repeated, and no longer ambiguous — the agent never got it', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('before');
    const { client } = await connect(agent, { retry: { maxAttempts: 1 } });
    const error = await rejection(send(client, 'work'));
    expect(error).toMatchObject({ ambiguous: false, retryable: true });
    expect(agent.methods).toEqual(['SendMessage', 'ListTasks']);
    await client.close();
  });

  it('a deadline too short for the lookup (under its 50 ms wait) leaves the ambiguous error, nothing asked', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('after');
    const { client, events } = await connect(agent);
    const error = await rejection(client.sendMessage({ message: { parts: [{ kind: 'text', text: 'work' }] } }, { timeouts: { totalMs: 45 } }));
    expect(error.ambiguous).toBe(true);
    expect(agent.methods).not.toContain('ListTasks');
    // 'unknown' when the cut came within the deadline; none when the deadline itself cut the send.
    expect(lookups(events).every((e) => e.outcome === 'unknown' && e.requests === 0)).toBe(true);
    await client.close();
  });
});

describe('a streaming send whose fate is unknown before its first event', () => {
  it('found: the stream follows the task it started and ends with its result; run once', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('after');
    const { client, events } = await connect(agent);
    const seen: Array<{ done: boolean; text?: string | undefined; error?: unknown }> = [];
    for await (const event of client.stream('write')) seen.push(event);
    expect(seen.every((e) => e.error === undefined)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ done: true, text: 'done: write' });
    expect([...agent.runs.values()]).toEqual([1]);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['found']);
    await client.close();
  });

  it('absent: the send is opened again and the caller gets the one answer', async () => {
    const agent = await ledgerAgent();
    agent.cut.push('before');
    const { client, events } = await connect(agent);
    const events2: unknown[] = [];
    for await (const event of client.sendStreamingMessage({ message: { parts: [{ kind: 'text', text: 'write' }] } })) events2.push(event);
    expect(events2).toEqual([expect.objectContaining({ kind: 'task', status: expect.objectContaining({ state: 'completed' }) })]);
    expect([...agent.runs.values()]).toEqual([1]);
    expect(lookups(events).map((e) => e.outcome)).toEqual(['absent']);
    expect(agent.methods.filter((m) => m === 'SendStreamingMessage')).toHaveLength(2);
    await client.close();
  });
});

describe('coordinators get it too', () => {
  it('fanOut: each agent whose send was cut after it ran is found; every target ends ok, each run once', async () => {
    const { fanOut } = await import('../../src/index.js');
    const agents = await Promise.all([ledgerAgent(), ledgerAgent(), ledgerAgent()]);
    for (const agent of agents) agent.cut.push('after');
    const clients = await Promise.all(agents.map(async (agent) => (await connect(agent)).client));
    const result = await fanOut(clients.map((client, i) => ({ client, input: `part ${i}`, label: `agent-${i}` })));
    expect(result.failed).toEqual([]);
    expect(result.ok.map((e) => e.label).sort()).toEqual(['agent-0', 'agent-1', 'agent-2']);
    for (const agent of agents) expect([...agent.runs.values()]).toEqual([1]);
    await Promise.all(clients.map((c) => c.close()));
  });

  it("a conversation turn after the first is looked up within the conversation's context", async () => {
    const agent = await ledgerAgent();
    const { client, events } = await connect(agent);
    const conversation = client.conversation({ contextId: 'ctx-trip' });
    await conversation.sendMessage({ message: { parts: [{ kind: 'text', text: 'first' }] } });
    agent.cut.push('after');
    const second = await conversation.sendMessage({ message: { parts: [{ kind: 'text', text: 'second' }] } });
    expect(second).toMatchObject({ kind: 'task', contextId: 'ctx-trip', status: { state: 'completed' } });
    expect(lookups(events).map((e) => e.outcome)).toEqual(['found']);
    expect([...agent.runs.values()]).toEqual([1, 1]);
    await client.close();
  });
});
