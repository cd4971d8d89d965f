/**
 * Plays a scenario's {@link Outcome} on one gRPC call: messages (ProtoJSON, encoded by the server),
 * streams with gaps, a drop (the connection destroyed after N messages) or an idle stall, statuses
 * with details and trailers, hangs and resets. The transport side is a {@link GrpcSink}, so this
 * file holds the behaviour and `grpc-server.ts` the grpc-js plumbing.
 */
import type { ProtocolVersion, StreamEvent, Task } from '../src/protocol/model.js';
import type { WireEncoder } from './encode.js';
import { grpcStatusForHttp, grpcStatusForRpc, GRPC_CODE, type GrpcStatusOut } from './grpc-errors.js';
import { grpcWireBody } from './grpc-wire.js';
import { encodeUnary, lastResult, STREAM_METHODS } from './respond.js';
import type { Outcome, ScenarioContext } from './scenarios.js';

/** One gRPC call as the responder drives it. */
export interface GrpcSink {
  /** Sends one response message; resolves once it is handed to the HTTP/2 stream. @throws Error when it does not encode. */
  send(message: unknown): Promise<void>;
  /** Ends a server stream with OK. */
  end(): void;
  /** Ends the call with a status. */
  fail(status: GrpcStatusOut): void;
  /** Destroys the connection carrying the call (no status: the client sees the connection drop). */
  reset(): void;
}

/** Pause before a drop so messages already sent reach a prompt reader first (as the SSE writer does). */
const DROP_GRACE_MS = 50;

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Everything one answer needs. */
export interface GrpcAnswer {
  outcome: Outcome;
  ctx: ScenarioContext;
  encoder: WireEncoder;
  version: ProtocolVersion;
  sink: GrpcSink;
}

/** Answers the call. Never rejects: an answer that does not encode ends the call with INTERNAL. */
export async function answerGrpc(a: GrpcAnswer): Promise<void> {
  try {
    await play(a);
  } catch (error: unknown) {
    a.sink.fail({ code: GRPC_CODE.INTERNAL, message: `mock: the answer does not encode: ${error instanceof Error ? error.message : String(error)}`, trailers: {} });
  }
}

async function play({ outcome: o, ctx, encoder, version, sink }: GrpcAnswer): Promise<void> {
  const streaming = STREAM_METHODS.has(ctx.method);
  switch (o.type) {
    case 'hang':
      return aborted(ctx.signal);
    case 'reset':
      return sink.reset();
    case 'http':
      return sink.fail(grpcStatusForHttp(o.status, o.headers, o.body));
    case 'rpc-error':
      return sink.fail(grpcStatusForRpc(version, o.code, o.message, o.data));
    case 'wire':
      await sink.send(grpcWireBody(version, ctx.method, o.body));
      return streaming ? sink.end() : undefined;
    case 'reply':
      if (streaming) return stream({ ctx, encoder, sink }, o.streamEvents ?? [o.result], {});
      if (o.result.kind === 'task') ctx.store.put(o.result);
      return sink.send(encodeUnary({ ctx, encoder }, o.result));
    case 'stream': {
      if (streaming) return stream({ ctx, encoder, sink }, o.events, o);
      for (const e of o.events) ctx.store.apply(e);
      const last = lastResult(o.events, ctx);
      if (last) return sink.send(encodeUnary({ ctx, encoder }, last));
      return sink.fail({ code: GRPC_CODE.INTERNAL, message: 'empty stream', trailers: {} });
    }
  }
}

/** Streams events one message each, recording delivered ones and (after a drop or stall) the rest as pending. */
async function stream(
  { ctx, encoder, sink }: Pick<GrpcAnswer, 'ctx' | 'encoder' | 'sink'>,
  events: readonly StreamEvent[],
  o: { gapMs?: number; dropAfter?: number; idleAfter?: number },
): Promise<void> {
  const taskId = events.find((e): e is Task => e.kind === 'task')?.id ?? ctx.ids.taskId;
  let index = 0;
  try {
    for (;;) {
      if (index > 0) await wait(o.gapMs ?? 0, ctx.signal);
      if (ctx.signal.aborted) return;
      if (o.dropAfter !== undefined && index >= o.dropAfter) {
        await wait(DROP_GRACE_MS, ctx.signal);
        return sink.reset();
      }
      if (o.idleAfter !== undefined && index >= o.idleAfter) return await aborted(ctx.signal);
      const event = events[index];
      if (event === undefined) return sink.end();
      await sink.send(encoder.event(event));
      index += 1;
      ctx.store.apply(event);
    }
  } finally {
    ctx.store.setPending(taskId, events.slice(index));
  }
}
