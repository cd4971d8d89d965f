import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptContext } from '../../src/protocol/binding.js';
import { parseAgentCard, selectInterface } from '../../src/protocol/card.js';
import { createBinding } from '../../src/protocol/create-binding.js';
import type { Message } from '../../src/protocol/model.js';
import { createEngine } from '../../src/transport/create-engine.js';
import type { HttpEngine } from '../../src/transport/engine.js';
import { DEFAULT_LIMITS } from '../../src/transport/settings.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { collect, flat, rejection } from './msw-helpers.js';

let server: OfficialServer;
let engine: HttpEngine;
beforeAll(async () => {
  server = await startOfficialServer();
  engine = createEngine();
});
afterAll(async () => {
  await engine.close();
  await server.close();
});

let n = 0;
const message = (text: string): Message => ({ kind: 'message', messageId: `m-${++n}`, role: 'user', parts: [{ kind: 'text', text }] });

describe.each([
  ['1.0', 'JSONRPC'],
  ['1.0', 'HTTP+JSON'],
  ['0.3', 'JSONRPC'],
  ['0.3', 'HTTP+JSON'],
] as const)('official @a2a-js/sdk server, %s %s', (version, bindingName) => {
  const binding = createBinding(version, bindingName);
  const ctx = (): AttemptContext => {
    const card = parseAgentCard(server.card);
    const { url } = selectInterface(card, { version, binding: bindingName });
    return { engine, url, headers: {}, timeouts: { connectMs: 5_000, readMs: 5_000, streamIdleMs: 5_000 }, limits: DEFAULT_LIMITS };
  };

  it('sends, gets and cancels', async () => {
    const sent = await binding.unary('sendMessage', { message: message('echo hello') }, ctx());
    expect(sent.kind).toBe('task');
    if (sent.kind !== 'task') return;
    expect(sent.status.state).toBe('completed');
    const got = await binding.unary('getTask', { id: sent.id }, ctx());
    expect(got).toMatchObject({ id: sent.id, status: { state: 'completed' } });
    const e = await rejection(binding.unary('cancelTask', { id: sent.id }, ctx()));
    expect(e).toMatchObject(bindingName === 'JSONRPC' ? { kind: 'json-rpc', code: -32002 } : { kind: 'http', status: 400 });
  });

  it('answers a plain message', async () => {
    const out = await binding.unary('sendMessage', { message: message('message hi') }, ctx());
    expect(out).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] });
  });

  it('reports an unknown task as TaskNotFound / 404', async () => {
    const e = await rejection(binding.unary('getTask', { id: 'no-such-task' }, ctx()));
    expect(e).toMatchObject(bindingName === 'JSONRPC' ? { kind: 'json-rpc', code: -32001, a2aName: 'TaskNotFound' } : { kind: 'http', status: 404 });
  });

  it('streams to completion', async () => {
    const events = await collect(flat(binding.stream('sendStreamingMessage', { message: message('stream 3') }, ctx())));
    expect(events[0]?.kind).toBe('task');
    expect(events.filter((e) => e.kind === 'artifact-update')).toHaveLength(3);
    const last = events.at(-1);
    expect(last?.kind === 'status-update' && last.status.state).toBe('completed');
  });

  it('subscribes to a running task and stops early without hanging', async () => {
    const sent = await binding.unary('sendMessage', { message: message('slow'), configuration: { blocking: false } }, ctx());
    expect(sent.kind).toBe('task');
    if (sent.kind !== 'task') return;
    const seen: string[] = [];
    for await (const ev of flat(binding.stream('subscribeToTask', { id: sent.id }, ctx()))) {
      seen.push(ev.kind);
      break;
    }
    expect(seen).toEqual(['task']);
    await binding.unary('cancelTask', { id: sent.id }, ctx()).catch((e: unknown) => e);
  });

  it('reports subscribing to a finished task as a typed error', async () => {
    const sent = await binding.unary('sendMessage', { message: message('echo done') }, ctx());
    const e = await rejection(collect(flat(binding.stream('subscribeToTask', { id: sent.kind === 'task' ? sent.id : '' }, ctx()))));
    expect(e).toMatchObject({ kind: bindingName === 'JSONRPC' ? 'json-rpc' : 'http', method: 'subscribeToTask' });
  });

  it('lists tasks on v1.0 only', async () => {
    if (version === '0.3') {
      expect(await rejection(binding.unary('listTasks', {}, ctx()))).toMatchObject({ kind: 'unsupported' });
      return;
    }
    const sent = await binding.unary('sendMessage', { message: { ...message('echo listed'), contextId: `ctx-${n}` } }, ctx());
    const out = await binding.unary('listTasks', { contextId: `ctx-${n}` }, ctx());
    expect(out.tasks.map((t) => t.id)).toContain(sent.kind === 'task' ? sent.id : '');
  });
});
