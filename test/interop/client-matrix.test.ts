/**
 * Our `A2AClient` against the official `@a2a-js/sdk` 1.3 server (see `../helpers/official-server.ts`),
 * for every protocol version × binding × HTTP engine: card discovery, send, stream, get, cancel,
 * subscribe, list and TaskNotFound. A pass/fail matrix (method × version/binding, per engine) is
 * printed after the run.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { A2AClient, A2AClientError, isA2AClientError } from '../../src/index.js';
import type { ClientOptions, SendMessageParams, SendResult, StreamEvent, Task } from '../../src/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';

type Version = '1.0' | '0.3';
type Binding = 'JSONRPC' | 'HTTP+JSON';
type Engine = 'undici' | 'fetch';

const COMBOS: ReadonlyArray<readonly [Version, Binding, Engine]> = (['1.0', '0.3'] as const).flatMap((v) =>
  (['JSONRPC', 'HTTP+JSON'] as const).flatMap((b) => (['undici', 'fetch'] as const).map((e) => [v, b, e] as const)),
);
const METHODS = [
  'discovery', 'sendMessage', 'sendStreamingMessage', 'getTask', 'cancelTask', 'subscribeToTask', 'listTasks', 'TaskNotFound',
] as const;
type Method = (typeof METHODS)[number];

/** `method → "<version> <binding>" → engine → pass/fail`. */
const results = new Map<string, 'pass' | 'FAIL'>();
const cellKey = (m: Method, v: Version, b: Binding, e: Engine): string => `${m}|${v} ${b}|${e}`;

/** Runs `body` and records its outcome in the results matrix. */
function cell(m: Method, v: Version, b: Binding, e: Engine, body: () => Promise<void>): () => Promise<void> {
  return async () => {
    results.set(cellKey(m, v, b, e), 'FAIL');
    await body();
    results.set(cellKey(m, v, b, e), 'pass');
  };
}

function printMatrix(): void {
  const columns = COMBOS.filter(([, , e]) => e === 'undici').map(([v, b]) => [v, b] as const);
  const header = ['method', ...columns.map(([v, b]) => `v${v} ${b} (undici/fetch)`)];
  const rows = METHODS.map((m) => [
    m,
    ...columns.map(([v, b]) => (['undici', 'fetch'] as const).map((e) => results.get(cellKey(m, v, b, e)) ?? '-').join('/')),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const table = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
  console.log(`\nA2AClient × official @a2a-js/sdk server\n${table}\n`);
}

const text = (t: string): SendMessageParams => ({ message: { parts: [{ kind: 'text', text: t }] } });

function expectTask(result: SendResult | StreamEvent | undefined): Task {
  expect(result?.kind).toBe('task');
  if (result?.kind !== 'task') throw new Error(`expected a task, got ${result?.kind}`);
  return result;
}

function textOf(parts: ReadonlyArray<{ kind: string; text?: string }> | undefined): string {
  return (parts ?? []).map((p) => (p.kind === 'text' ? p.text : '')).join('');
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<A2AClientError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isA2AClientError(error)).toBe(true);
  if (!(error instanceof A2AClientError)) throw new Error('expected an A2AClientError');
  return error;
}

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  printMatrix();
  await server.close();
});

describe.each(COMBOS)('A2AClient v%s %s (%s engine) ↔ official server', (version, binding, engine) => {
  const options = (): ClientOptions => ({ protocol: { version, binding }, ...(engine === 'fetch' ? { fetch: 'global' as const } : {}) });
  const endpoint = (): string => (binding === 'JSONRPC' ? server.jsonRpcUrl : server.restUrl);
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(server.baseUrl, options());
  });
  afterAll(async () => {
    await client.close();
  });

  it('discovers the card and chooses the requested interface, over the requested engine', cell('discovery', version, binding, engine, async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const fresh = await A2AClient.connect(server.baseUrl, options());
    try {
      expect(fresh.protocol).toEqual({ version, binding, url: endpoint() });
      expect(fresh.name).toBe('official-interop-agent');
      expect(fresh.card.capabilities.streaming).toBe(true);
      expect(fresh.card.interfaces.map((i) => `${i.version} ${i.binding}`)).toEqual(expect.arrayContaining([`${version} ${binding}`]));
      const reply = await fresh.sendMessage(text('message ping'));
      expect(reply.kind).toBe('message');
      const urls = fetchSpy.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input));
      if (engine === 'fetch') {
        expect(urls[0]).toMatch(/\/\.well-known\/agent-card\.json$/);
        expect(urls.some((u) => u.startsWith(endpoint()))).toBe(true);
      } else {
        expect(urls).toEqual([]);
      }
    } finally {
      fetchSpy.mockRestore();
      await fresh.close();
    }
  }));

  it('sendMessage: a Task with the artifact text, and a plain Message reply', cell('sendMessage', version, binding, engine, async () => {
    const task = expectTask(await client.sendMessage(text('echo hello')));
    expect(task.status.state).toBe('completed');
    expect(task.artifacts?.map((a) => [a.artifactId, textOf(a.parts)])).toEqual([['out', 'hello']]);
    expect(textOf(task.status.message?.parts)).toBe('hello');
    expect(task.status.message?.role).toBe('agent');
    const message = await client.sendMessage(text('message hi there'));
    expect(message).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hi there' }] });
  }));

  it('sendStreamingMessage("stream 5"): events in order, every chunk, terminal completed', cell('sendStreamingMessage', version, binding, engine, async () => {
    const events = await collect(client.sendStreamingMessage(text('stream 5')));
    expect(events.map((e) => e.kind)).toEqual([
      'task', 'status-update', 'artifact-update', 'artifact-update', 'artifact-update', 'artifact-update', 'artifact-update', 'status-update',
    ]);
    const task = expectTask(events[0]);
    expect(task.status.state).toBe('submitted');
    const updates = events.slice(1);
    for (const e of updates) expect(e).toMatchObject({ taskId: task.id, contextId: task.contextId });
    const chunks = updates.flatMap((e) => (e.kind === 'artifact-update' ? [e] : []));
    expect(chunks.map((c) => [c.artifact.artifactId, textOf(c.artifact.parts), Boolean(c.append), Boolean(c.lastChunk)])).toEqual([
      ['out', 'chunk 0 ', false, false],
      ['out', 'chunk 1 ', true, false],
      ['out', 'chunk 2 ', true, false],
      ['out', 'chunk 3 ', true, false],
      ['out', 'chunk 4 ', true, true],
    ]);
    const statuses = updates.flatMap((e) => (e.kind === 'status-update' ? [e] : []));
    expect(statuses.map((s) => s.status.state)).toEqual(['working', 'completed']);
    expect(textOf(statuses[1]?.status.message?.parts)).toBe('streamed 5 chunks');
    if (version === '0.3') expect(statuses.map((s) => s.final)).toEqual([false, true]);
    const stored = await client.getTask({ id: task.id });
    expect(stored.status.state).toBe('completed');
    expect(stored.artifacts?.map((a) => textOf(a.parts))).toEqual(['chunk 0 chunk 1 chunk 2 chunk 3 chunk 4 ']);
  }));

  it('getTask returns the task, and historyLength trims its history', cell('getTask', version, binding, engine, async () => {
    const sent = expectTask(await client.sendMessage(text('echo history')));
    const full = await client.getTask({ id: sent.id });
    expect(full).toMatchObject({ kind: 'task', id: sent.id, contextId: sent.contextId, status: { state: 'completed' } });
    expect(full.artifacts?.map((a) => textOf(a.parts))).toEqual(['history']);
    expect(full.history?.map((m) => [m.role, textOf(m.parts)])).toEqual([['user', 'echo history'], ['agent', 'history']]);
    const trimmed = await client.getTask({ id: sent.id, historyLength: 1 });
    expect(trimmed.history?.map((m) => [m.role, textOf(m.parts)])).toEqual([['agent', 'history']]);
  }));

  it('cancelTask on a running "slow" task → canceled', cell('cancelTask', version, binding, engine, async () => {
    const sent = expectTask(await client.sendMessage({ ...text('slow'), configuration: { blocking: false } }));
    expect(['submitted', 'working']).toContain(sent.status.state);
    const canceled = await client.cancelTask({ id: sent.id });
    expect(canceled).toMatchObject({ kind: 'task', id: sent.id, status: { state: 'canceled' } });
    expect(textOf(canceled.status.message?.parts)).toBe('canceled by request');
    expect((await client.getTask({ id: sent.id })).status.state).toBe('canceled');
  }));

  it('subscribeToTask on a running task: the Task snapshot first, then canceled', cell('subscribeToTask', version, binding, engine, async () => {
    const sent = expectTask(await client.sendMessage({ ...text('slow'), configuration: { blocking: false } }));
    const iterator = client.subscribeToTask({ id: sent.id })[Symbol.asyncIterator]();
    try {
      const first = await iterator.next();
      const snapshot = expectTask(first.done ? undefined : first.value);
      expect(snapshot).toMatchObject({ id: sent.id, contextId: sent.contextId, status: { state: 'working' } });
      const canceled = await client.cancelTask({ id: sent.id });
      expect(canceled.status.state).toBe('canceled');
      const rest: StreamEvent[] = [];
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value);
      expect(rest.map((e) => e.kind)).toEqual(['status-update']);
      expect(rest[0]).toMatchObject({ kind: 'status-update', taskId: sent.id, status: { state: 'canceled' } });
    } finally {
      await iterator.return?.();
    }
  }));

  it(`listTasks: ${version === '1.0' ? 'lists the tasks of a context' : "kind 'unsupported', nothing sent"}`, cell('listTasks', version, binding, engine, async () => {
    const sent = expectTask(await client.sendMessage(text('echo listed')));
    if (version === '1.0') {
      const listed = await client.listTasks({ contextId: sent.contextId });
      expect(listed.tasks.map((t) => [t.id, t.status.state])).toEqual([[sent.id, 'completed']]);
      expect(listed.totalSize).toBe(1);
      return;
    }
    const error = await rejection(client.listTasks({ contextId: sent.contextId }));
    expect(error).toMatchObject({ kind: 'unsupported', method: 'listTasks', retryable: false, phase: 'before-send' });
  }));

  it('an unknown task id fails fast with the binding’s TaskNotFound error (retry: false)', cell('TaskNotFound', version, binding, engine, async () => {
    const error = await rejection(client.getTask({ id: 'no-such-task' }, { retry: false }));
    expect(error.method).toBe('getTask');
    expect(error.retryable).toBe(false);
    expect(error.attempts).toHaveLength(1);
    if (binding === 'JSONRPC') {
      expect(error).toMatchObject({ kind: 'json-rpc', code: -32001, a2aName: 'TaskNotFound', status: 200 });
      expect(error.message).toContain('Task not found: no-such-task');
    } else if (version === '1.0') {
      expect(error).toMatchObject({
        kind: 'http', status: 404, a2aName: 'TaskNotFound',
        rpcStatus: { code: 404, status: 'NOT_FOUND', message: 'Task not found: no-such-task', details: [{ reason: 'TASK_NOT_FOUND' }] },
      });
      expect(error.message).toContain('Task not found: no-such-task');
    } else {
      // v0.3 REST answers 404 with a bare `{ code: -32001, message }` body: its code and text are kept.
      expect(error).toMatchObject({ kind: 'http', status: 404, code: -32001, a2aName: 'TaskNotFound' });
      expect(error.message).toContain('Task not found: no-such-task');
      expect(JSON.parse(error.bodyText ?? '')).toEqual({ code: -32001, message: 'Task not found: no-such-task' });
    }
  }));
});

describe('interface negotiation from the official card', () => {
  it('without a preference: the card’s first interface (v1.0 JSONRPC); a version alone keeps the card’s binding order', async () => {
    const chosen = async (opts: ClientOptions): Promise<unknown> => {
      const c = await A2AClient.connect(server.baseUrl, opts);
      await c.close();
      return c.protocol;
    };
    expect(await chosen({})).toEqual({ version: '1.0', binding: 'JSONRPC', url: server.jsonRpcUrl });
    expect(await chosen({ protocol: { version: '0.3' } })).toEqual({ version: '0.3', binding: 'JSONRPC', url: server.jsonRpcUrl });
    expect(await chosen({ protocol: { binding: 'HTTP+JSON' } })).toEqual({ version: '1.0', binding: 'HTTP+JSON', url: server.restUrl });
  });

  it('follows a REST-first card, and refuses v0.3 when the server does not serve it', async () => {
    const rest = await startOfficialServer({ preferredBinding: 'HTTP+JSON', legacyCompat: false });
    try {
      const c = await A2AClient.connect(rest.baseUrl);
      await c.close();
      expect(c.protocol).toEqual({ version: '1.0', binding: 'HTTP+JSON', url: rest.restUrl });
      const error = await rejection(A2AClient.connect(rest.baseUrl, { protocol: { version: '0.3' } }));
      expect(error.kind).toBe('unsupported');
    } finally {
      await rest.close();
    }
  });
});
