/**
 * A server-streaming gRPC call hands its messages to the reader in batches: every message a turn of
 * the event loop brought goes up together (one trip through the layers above for a whole network
 * read), in order, none lost, none held back waiting for the next, and a failure comes after the
 * messages before it. Real grpc-js servers on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '@bufbuild/protobuf';
import { A2AClient } from 'a2a-resilient';
import { runtime } from '../../../src/protocol/grpc/grpc-runtime.js';
import { grpcStream, type GrpcCallInit } from '../../../src/protocol/grpc/grpc-call.js';
import { grpcCard, startGrpcFaultServer, type FaultAnswer } from '../../helpers/grpc-fault-server.js';
import { rejection } from '../../helpers/rejection.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

const ids = { taskId: 't-1', contextId: 'ctx' };
const chunk = (i: number): JsonValue => ({ artifactUpdate: { ...ids, artifact: { artifactId: 'a-1', parts: [{ text: `<${i}>` }] }, append: i > 0 } });
const completed: JsonValue = { statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED' } } };
const chunks = (n: number): JsonValue[] => Array.from({ length: n }, (_, i) => chunk(i));

async function server(answer: FaultAnswer): Promise<string> {
  const s = await startGrpcFaultServer(() => answer);
  closers.push(() => s.close());
  return s.target;
}

const streaming = runtime.services['1.0'].methods.get('SendStreamingMessage');
if (streaming === undefined) throw new Error('no SendStreamingMessage codec');

/** The call's batches as they reach the reader, each with the time it arrived. */
async function read(target: string): Promise<{ batches: Array<{ at: number; texts: string[] }>; error?: unknown }> {
  const client = new runtime.grpc.Client(target, runtime.grpc.credentials.createInsecure());
  closers.push(() => client.close());
  const init: GrpcCallInit = { rt: runtime, client, target, method: streaming!, name: 'sendStreamingMessage', metadata: new runtime.grpc.Metadata(), timeouts: { connectMs: 5_000, readMs: 5_000, streamIdleMs: 5_000 } };
  const request = streaming!.encodeRequest({ message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'go' }] } });
  const batches: Array<{ at: number; texts: string[] }> = [];
  try {
    for await (const batch of grpcStream(init, request)) {
      const texts = batch.map((bytes) => {
        const json = streaming!.decodeResponse(bytes) as { artifactUpdate?: { artifact: { parts: Array<{ text: string }> } } };
        return json.artifactUpdate?.artifact.parts[0]?.text ?? 'status';
      });
      batches.push({ at: performance.now(), texts });
    }
  } catch (error) {
    return { batches, error };
  }
  return { batches };
}

describe('grpcStream (one server-streaming call)', () => {
  it('a burst of messages reaches the reader complete and in order, several per batch', async () => {
    const target = await server({ reply: [...chunks(2_000), completed] });
    const { batches, error } = await read(target);
    expect(error).toBeUndefined();
    const texts = batches.flatMap((b) => b.texts);
    expect(texts).toEqual([...chunks(2_000).map((_, i) => `<${i}>`), 'status']);
    expect(batches.every((b) => b.texts.length > 0)).toBe(true);
    // One batch per turn of the event loop, not one per message (a server in this process shares the
    // loop and writes in turns: ~2 a batch here; ~19 from a server of its own, in the bench).
    expect(batches.length).toBeLessThan(1_500);
  });

  it('messages apart are not held for the next one: each reaches the reader on its own', async () => {
    const target = await server({ reply: chunks(4), gapMs: 150 });
    const { batches, error } = await read(target);
    expect(error).toBeUndefined();
    expect(batches.map((b) => b.texts)).toEqual([['<0>'], ['<1>'], ['<2>'], ['<3>']]);
    for (let i = 1; i < batches.length; i++) expect(batches[i]!.at - batches[i - 1]!.at).toBeGreaterThan(75);
  });

  it('a failure after a burst comes after every message before it', async () => {
    const target = await server({ reply: chunks(500), thenStatus: 9 });
    const { batches, error } = await read(target);
    expect(batches.flatMap((b) => b.texts)).toEqual(chunks(500).map((_, i) => `<${i}>`));
    expect(error).toMatchObject({ kind: 'http', status: 400 });
  });
});

describe('sendStreamingMessage over gRPC', () => {
  it('every event of a burst, in order, through the public API', async () => {
    const target = await server({ reply: [{ task: { id: 't-1', contextId: 'ctx', status: { state: 'TASK_STATE_SUBMITTED' } } }, ...chunks(3_000), completed] });
    const client = new A2AClient(grpcCard('burst', target), { retry: false });
    closers.push(() => client.close());
    const texts: string[] = [];
    let last = '';
    for await (const ev of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } })) {
      if (ev.kind === 'artifact-update') texts.push(ev.artifact.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''));
      if (ev.kind === 'status-update') last = ev.status.state;
    }
    expect(texts).toEqual(chunks(3_000).map((_, i) => `<${i}>`));
    expect(last).toBe('completed');
  });

  it('a stream that fails after a burst surfaces the failure after its events', async () => {
    const target = await server({ reply: chunks(200), thenStatus: 9 });
    const client = new A2AClient(grpcCard('burst', target), { retry: false });
    closers.push(() => client.close());
    let events = 0;
    const error = await rejection((async () => {
      for await (const ev of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } })) if (ev.kind === 'artifact-update') events++;
    })());
    expect(events).toBe(200);
    expect(error.kind).toBe('http');
  });
});
