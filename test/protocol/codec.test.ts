import { describe, expect, it } from 'vitest';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import type { Message, Part } from '../../src/protocol/model.js';
import { decodeV03Event, messageToV03, partToV03, v03Codec, v03RestCodec } from '../../src/protocol/v03/codec.js';
import { partFromV03 } from '../../src/protocol/v03/decode.js';
import { messageToV1, partToV1, stateToV1, v1Codec } from '../../src/protocol/v1/codec.js';
import { partFromV1, stateFromV1 } from '../../src/protocol/v1/decode.js';
import { fixture, sseFrames } from './fixtures.js';

const parts: Part[] = [
  { kind: 'text', text: 'hello', mediaType: 'text/plain' },
  { kind: 'file', file: { bytes: 'aGk=', name: 'a.bin', mimeType: 'application/octet-stream' } },
  { kind: 'file', file: { uri: 'https://example.com/x.png', name: 'x.png', mimeType: 'image/png' } },
  { kind: 'data', data: { a: 1, nested: [true] }, metadata: { k: 'v' } },
];

describe('v1.0 codec', () => {
  it('encodes the send request exactly as the official client fixture', () => {
    const f = fixture('v1-jsonrpc-send-message');
    const params = f.request.body?.params as { message: Record<string, unknown> };
    const message: Message = { kind: 'message', messageId: '00000000-0000-4000-8000-000000000001', role: 'user', parts: [{ kind: 'text', text: 'message hi there', mediaType: 'text/plain' }] };
    expect(v1Codec.encode.sendMessage({ message })).toEqual(params);
  });

  it('decodes a wrapped message result and keeps the wire object in raw', () => {
    const f = fixture('v1-jsonrpc-send-message');
    const result = (f.response.body as { result: { message: unknown } }).result;
    const out = v1Codec.decode.sendMessage(result);
    expect(out.kind).toBe('message');
    if (out.kind !== 'message') return;
    expect(out.role).toBe('agent');
    expect(out.parts).toEqual([{ kind: 'text', text: 'hi there', mediaType: 'text/plain' }]);
    expect(out.raw).toEqual(result.message);
    expect(messageToV1(out)).toEqual(result.message);
  });

  it('decodes a failed task with metadata passed through', () => {
    const f = fixture('v1-jsonrpc-send-fail');
    const out = v1Codec.decode.sendMessage((f.response.body as { result: unknown }).result);
    expect(out.kind).toBe('task');
    if (out.kind !== 'task') return;
    expect(out.status.state).toBe('failed');
    expect(out.status.message?.metadata).toMatchObject({ error_type: 'flow_error', error_code: 'E42' });
  });

  it('decodes every frame of a captured stream in order', () => {
    const frames = sseFrames(fixture('v1-jsonrpc-stream').response.raw ?? '');
    const events = frames.map((f) => v1Codec.decodeStreamEvent(f.result));
    expect(events.map((e) => e.kind)).toEqual(['task', 'status-update', 'artifact-update', 'artifact-update', 'artifact-update', 'status-update']);
    const last = events.at(-1);
    expect(last?.kind === 'status-update' && last.status.state).toBe('completed');
    const a = events[3];
    expect(a?.kind === 'artifact-update' && [a.append, a.lastChunk]).toEqual([true, false]);
    const first = events[2];
    expect(first?.kind === 'artifact-update' && [first.append, first.lastChunk]).toEqual([false, false]);
  });

  it('decodes ListTasks', () => {
    const out = v1Codec.decode.listTasks((fixture('v1-jsonrpc-list').response.body as { result: unknown }).result);
    expect(out.tasks).toHaveLength(1);
    expect(out.tasks[0]?.status.state).toBe('completed');
    expect(out.totalSize).toBe(1);
    expect(out.nextPageToken).toBeUndefined();
  });

  it('maps every state and part both ways', () => {
    for (const s of ['submitted', 'working', 'input-required', 'auth-required', 'completed', 'failed', 'canceled', 'rejected', 'unknown'] as const) {
      expect(stateFromV1(stateToV1(s))).toBe(s);
    }
    for (const p of parts) expect(partFromV1(partToV1(p) as never)).toEqual(p);
    expect(partToV1(parts[1]!)).toEqual({ raw: 'aGk=', filename: 'a.bin', mediaType: 'application/octet-stream' });
    expect(partToV1(parts[2]!)).toEqual({ url: 'https://example.com/x.png', filename: 'x.png', mediaType: 'image/png' });
  });

  it('keeps unknown fields and rejects a bad state naming the field', () => {
    const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' }, vendorExt: { x: 1 } };
    expect(v1Codec.decode.getTask(task).raw).toMatchObject({ vendorExt: { x: 1 } });
    const bad = () => v1Codec.decode.getTask({ ...task, status: { state: 'RUNNING' } });
    expect(bad).toThrow(A2AClientError);
    try {
      bad();
    } catch (e) {
      expect(e).toMatchObject({ kind: 'invalid-response', field: 'result.status.state' });
    }
  });

  it('rejects a StreamResponse with two members', () => {
    const t = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
    expect(() => v1Codec.decodeStreamEvent({ task: t, message: { messageId: 'm', role: 'ROLE_AGENT', parts: [] } })).toThrow(
      expect.objectContaining({ kind: 'invalid-response' }),
    );
  });

  it('encodes push configs flat and decodes them back', () => {
    const wire = v1Codec.encode.createTaskPushNotificationConfig({ taskId: 't1', config: { id: 'c1', url: 'https://hook', token: 'tok', authentication: { scheme: 'Bearer' } } });
    expect(wire).toEqual({ taskId: 't1', id: 'c1', url: 'https://hook', token: 'tok', authentication: { scheme: 'Bearer' } });
    const back = v1Codec.decode.createTaskPushNotificationConfig(wire);
    expect(back.config).toEqual({ id: 'c1', url: 'https://hook', token: 'tok', authentication: { scheme: 'Bearer' } });
  });
});

describe('v0.3 codec', () => {
  it('encodes the send request exactly as the official client fixture', () => {
    const f = fixture('v03-jsonrpc-send-message');
    const params = f.request.body?.params;
    const message: Message = { kind: 'message', messageId: '00000000-0000-4000-8000-000000000001', role: 'user', parts: [{ kind: 'text', text: 'message hi there' }] };
    expect(v03Codec.encode.sendMessage({ message })).toEqual(params);
  });

  it('decodes every frame of a captured stream, keeping final', () => {
    const frames = sseFrames(fixture('v03-jsonrpc-stream').response.raw ?? '');
    const events = frames.map((f) => v03Codec.decodeStreamEvent(f.result));
    expect(events[0]?.kind).toBe('task');
    const last = events.at(-1);
    expect(last?.kind).toBe('status-update');
    if (last?.kind !== 'status-update') return;
    expect(last.final).toBe(true);
    expect(last.status.state).toBe('completed');
    expect(last.status.message?.parts).toEqual([{ kind: 'text', text: 'streamed 2 chunks' }]);
  });

  it('decodes failed tasks and get results from fixtures', () => {
    const fail = v03Codec.decode.sendMessage((fixture('v03-jsonrpc-send-fail').response.body as { result: unknown }).result);
    expect(fail.kind === 'task' && fail.status.state).toBe('failed');
    const got = v03Codec.decode.getTask((fixture('v03-jsonrpc-get').response.body as { result: unknown }).result);
    expect(got.kind).toBe('task');
  });

  it('maps parts both ways in both styles', () => {
    const plain = parts.map((p) => (p.kind === 'text' ? { kind: 'text' as const, text: p.text } : p));
    for (const p of plain) expect(partFromV03(partToV03(p) as never)).toEqual(p);
    expect(partFromV03(partToV03(plain[3]!, 'proto') as never)).toEqual(plain[3]);
    expect(partFromV03(partToV03(plain[2]!, 'proto') as never)).toEqual({ kind: 'file', file: { uri: 'https://example.com/x.png', mimeType: 'image/png' } });
  });

  it('reads the v0.3 REST ProtoJSON shape', () => {
    const ev = decodeV03Event({
      task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_CANCELLED', message: { messageId: 'm', role: 'ROLE_AGENT', content: [{ text: 'bye' }] } } },
    });
    expect(ev.kind).toBe('task');
    if (ev.kind !== 'task') return;
    expect(ev.status.state).toBe('canceled');
    expect(ev.status.message?.parts).toEqual([{ kind: 'text', text: 'bye' }]);
    const msg = v03RestCodec.decode.sendMessage({ message: { messageId: 'm', role: 'ROLE_AGENT', content: [{ data: { data: { n: 1 } } }] } });
    expect(msg.kind === 'message' && msg.parts).toEqual([{ kind: 'data', data: { n: 1 } }]);
  });

  it('writes ProtoJSON requests for v0.3 REST', () => {
    const m: Message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    expect(messageToV03(m, 'proto')).toEqual({ messageId: 'm', role: 'ROLE_USER', content: [{ text: 'hi' }] });
  });

  it('carries referenceTaskIds where the version has the field: v1.0 and v0.3 JSON-RPC, not the v0.3 proto shape', () => {
    const m: Message = { kind: 'message', messageId: 'm', role: 'user', contextId: 'c', parts: [{ kind: 'text', text: 'hi' }], referenceTaskIds: ['t1'] };
    expect(messageToV1(m)).toMatchObject({ contextId: 'c', referenceTaskIds: ['t1'] });
    expect(messageToV03(m)).toMatchObject({ kind: 'message', contextId: 'c', referenceTaskIds: ['t1'] });
    expect(messageToV03(m, 'proto')).toEqual({ messageId: 'm', contextId: 'c', role: 'ROLE_USER', content: [{ text: 'hi' }] });
  });

  it('names the field of an unknown kind', () => {
    expect(() => decodeV03Event({ kind: 'nope' })).toThrow(expect.objectContaining({ kind: 'invalid-response', field: 'result.kind' }));
  });
});

describe('lossless validated decoding', () => {
  const failure = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    throw new Error('expected a failure');
  };

  it('v1.0: keeps unknown fields at every level in raw, and they do not change the model', () => {
    const part = { text: 'x', vendorPart: 1 };
    const update = { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [part], vendorArtifact: [2] }, append: true, vendorUpdate: { deep: true } };
    const ev = v1Codec.decodeStreamEvent({ artifactUpdate: update, vendorFrame: 'f' });
    expect(ev.raw).toEqual(update);
    expect(ev).toEqual({
      kind: 'artifact-update',
      taskId: 't',
      contextId: 'c',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
      append: true,
      lastChunk: false,
      raw: update,
    });

    const message = { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }], 'x-ext': { a: 1 } };
    const status = { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message, vendorStatus: 3 } };
    const su = v1Codec.decodeStreamEvent({ statusUpdate: status });
    expect(su.raw).toEqual(status);
    expect(su.kind === 'status-update' && su.status.message?.raw).toEqual(message);

    const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' }, history: [message], vendorTask: null };
    const t = v1Codec.decode.sendMessage({ task });
    expect(t.raw).toEqual(task);
    expect(t.kind === 'task' && t.history?.[0]?.raw).toEqual(message);
  });

  it('v0.3: keeps unknown fields in raw for the kind shape and the ProtoJSON shape', () => {
    const update = { kind: 'artifact-update', taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x', vendorPart: 1 }] }, vendorUpdate: 'u' };
    const ev = v03Codec.decodeStreamEvent(update);
    expect(ev.raw).toEqual(update);
    expect(ev.kind === 'artifact-update' && ev.artifact.parts).toEqual([{ kind: 'text', text: 'x' }]);

    const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', update: { messageId: 'm', role: 'ROLE_AGENT', content: [{ text: 'w' }], vendorMsg: 2 } }, vendorTask: 1 };
    const t = v03RestCodec.decodeStreamEvent({ task });
    expect(t.raw).toEqual(task);
    expect(t.kind === 'task' && t.status.message?.raw).toEqual(task.status.update);
  });

  it('names the field when an "exactly one of" rule is broken', () => {
    const frame = (part: Record<string, unknown>) => ({ artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'ok' }, part] } } });
    for (const part of [{ text: 'x', url: 'https://x' }, { filename: 'f' }]) {
      expect(failure(() => v1Codec.decodeStreamEvent(frame(part)))).toMatchObject({
        kind: 'invalid-response',
        field: 'result.artifactUpdate.artifact.parts.1',
        message: expect.stringContaining('exactly one of text, raw, url, data'),
      });
    }
    const t = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } };
    const m = { messageId: 'm', role: 'ROLE_AGENT', parts: [] };
    for (const bad of [{}, { task: t, message: m }]) {
      expect(failure(() => v1Codec.decodeStreamEvent(bad))).toMatchObject({
        field: 'result',
        message: expect.stringContaining('expected exactly one of task, message, statusUpdate, artifactUpdate'),
      });
      expect(failure(() => v1Codec.decode.sendMessage(bad))).toMatchObject({ field: 'result', message: expect.stringContaining('expected exactly one of task, message') });
    }
    const v03 = { kind: 'artifact-update', taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x', data: {} }] } };
    expect(failure(() => v03Codec.decodeStreamEvent(v03))).toMatchObject({ field: 'result.artifact.parts.0', message: expect.stringContaining('a Part needs its content') });
  });

  it('names the first offending field inside a wrapper', () => {
    const au = { taskId: 't', contextId: 'c', artifact: { artifactId: 7, parts: [] } };
    expect(failure(() => v1Codec.decodeStreamEvent({ artifactUpdate: au }))).toMatchObject({ field: 'result.artifactUpdate.artifact.artifactId' });
    expect(failure(() => v03RestCodec.decodeStreamEvent({ artifactUpdate: au }))).toMatchObject({ field: 'result.artifactUpdate.artifact.artifactId' });
    expect(failure(() => v03Codec.decodeStreamEvent({ kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'RUNNING' } }))).toMatchObject({
      field: 'result.status.state',
    });
  });
});
