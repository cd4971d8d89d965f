/**
 * `client.tasks(params)`: every page of listTasks, on the official server (v1.0 JSON-RPC and REST)
 * and on a mock agent that hands out a page token twice; `unsupported` on v0.3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type Task } from '../../src/index.js';
import { mockAgent, type Scenario } from '../../mocks/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

/** A fetch that counts the listTasks requests it carries (JSON-RPC `ListTasks`, REST `GET …/tasks`). */
function countingFetch(): { fetch: typeof globalThis.fetch; pages: () => number } {
  let pages = 0;
  const counted: typeof globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const body = typeof init?.body === 'string' ? init.body : '';
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    if (body.includes('"ListTasks"') || (method === 'GET' && new URL(url).pathname.endsWith('/tasks'))) pages++;
    return globalThis.fetch(input, init);
  };
  return { fetch: counted, pages: () => pages };
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('tasks() on the official server (v1.0 %s)', (binding) => {
  it('seven tasks of one context with pageSize 3: three pages, every task once', async () => {
    const counting = countingFetch();
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version: '1.0', binding }, fetch: counting.fetch });
    try {
      const first = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'echo 0' }] } });
      const contextId = first.kind === 'task' ? first.contextId : '';
      const ids = [first.kind === 'task' ? first.id : ''];
      for (let i = 1; i < 7; i++) {
        const sent = await client.sendMessage({ message: { role: 'user', contextId, parts: [{ kind: 'text', text: `echo ${i}` }] } });
        ids.push(sent.kind === 'task' ? sent.id : '');
      }
      const listed: Task[] = [];
      for await (const task of client.tasks({ contextId, pageSize: 3 })) listed.push(task);
      expect(listed.map((t) => t.id).sort()).toEqual([...ids].sort());
      expect(counting.pages()).toBe(3);
      // Leaving early stops asking for pages.
      const before = counting.pages();
      for await (const task of client.tasks({ contextId, pageSize: 3 })) {
        expect(task.contextId).toBe(contextId);
        break;
      }
      expect(counting.pages() - before).toBe(1);
    } finally {
      await client.close();
    }
  });
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('tasks() on v0.3 (%s)', (binding) => {
  it('fails with kind unsupported at the first page', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version: '0.3', binding } });
    try {
      const error: unknown = await (async () => {
        for await (const task of client.tasks()) expect(task).toBeUndefined();
      })().catch((e: unknown) => e);
      expect(isA2AClientError(error) && error.kind).toBe('unsupported');
    } finally {
      await client.close();
    }
  });
});

const wireTask = (id: string): Record<string, unknown> => ({ id, contextId: 'ctx-pages', status: { state: 'TASK_STATE_COMPLETED' } });

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('tasks() against an agent that repeats a page token (v1.0 %s)', (binding) => {
  it('yields what the pages held, then ends with invalid-response instead of looping', async () => {
    const agent = mockAgent({ name: `pager-${binding}`.toLowerCase().replace(/[^a-z0-9-]/g, ''), version: '1.0', binding });
    const pages: Array<Record<string, unknown>> = [
      { tasks: [wireTask('t1'), wireTask('t2')], nextPageToken: 'p2' },
      { tasks: [wireTask('t3'), wireTask('t4')], nextPageToken: 'p3' },
      { tasks: [wireTask('t5')], nextPageToken: 'p2' },
    ];
    let n = 0;
    const listTasks: Scenario = () => ({ type: 'wire', body: pages[Math.min(n++, pages.length - 1)] });
    agent.on('listTasks', listTasks);
    const served = await agent.listen();
    const client = await A2AClient.connect(served.url);
    try {
      const seen: string[] = [];
      const error: unknown = await (async () => {
        for await (const task of client.tasks({ pageSize: 2 })) seen.push(task.id);
      })().catch((e: unknown) => e);
      expect(seen).toEqual(['t1', 't2', 't3', 't4', 't5']);
      expect(isA2AClientError(error) && [error.kind, error.field, error.method]).toEqual(['invalid-response', 'nextPageToken', 'listTasks']);
      const calls = agent.callsOf('listTasks');
      expect(calls).toHaveLength(3);
      // pageSize went out with every page, and each token once.
      // pageSize went out with every page (REST: as a query string), each token once.
      const sent = calls.map((c) => JSON.parse(JSON.stringify(c.params).replace(/"2"/g, '2')) as unknown);
      expect(sent).toEqual([{ pageSize: 2 }, { pageSize: 2, pageToken: 'p2' }, { pageSize: 2, pageToken: 'p3' }]);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
