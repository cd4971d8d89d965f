/**
 * A scriptable A2A v1.0 gRPC server on 127.0.0.1 built on grpc-js and the binding's own codecs
 * (`grpc-codec.ts`): each call of a method is answered by the test's script, which can return a
 * ProtoJSON response (a stream's messages at once, or `gapMs` apart, then the end or a status),
 * fail with a status (and trailers), or hang. For faults the official server
 * cannot produce (UNAVAILABLE, RESOURCE_EXHAUSTED with pushback, a dropped connection).
 */
import * as grpc from '@grpc/grpc-js';
import type { JsonValue } from '@bufbuild/protobuf';
import { runtime } from '../../src/protocol/grpc/grpc-runtime.js';

/** What a script answers one call with. */
export type FaultAnswer =
  | { reply: JsonValue; gapMs?: number; thenStatus?: number }
  | { status: number; message?: string; trailers?: Record<string, string> }
  | { hang: true };

/** A running fault server. */
export interface GrpcFaultServer {
  /** `127.0.0.1:<port>` */
  target: string;
  /** Calls received per method name (`SendMessage`, …). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

/** Starts a v1.0 A2A service whose answers `script(method, n)` gives (`n`: 1 for the first call of that method). */
export async function startGrpcFaultServer(script: (method: string, n: number, request: JsonValue) => FaultAnswer): Promise<GrpcFaultServer> {
  const server = new grpc.Server();
  const calls = new Map<string, number>();
  const service = runtime.services['1.0'];
  const impl: grpc.UntypedServiceImplementation = {};
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, codec] of service.methods) {
    definition[name] = {
      path: codec.path, requestStream: false, responseStream: codec.serverStreaming, originalName: name,
      requestSerialize: (b: unknown) => b as Buffer, requestDeserialize: (b: Buffer) => codec.decodeRequest(b),
      responseSerialize: (j: unknown) => Buffer.from(codec.encodeResponse(j as JsonValue)), responseDeserialize: (b: Buffer) => b,
    };
    const answer = (request: JsonValue): FaultAnswer => {
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      return script(name, n, request);
    };
    const statusOf = (a: { status: number; message?: string; trailers?: Record<string, string> }): Partial<grpc.StatusObject> => {
      const metadata = new grpc.Metadata();
      for (const [k, v] of Object.entries(a.trailers ?? {})) metadata.set(k, v);
      return { code: a.status, details: a.message ?? 'scripted', metadata };
    };
    impl[name] = codec.serverStreaming
      ? ((call: grpc.ServerWritableStream<JsonValue, JsonValue>) => {
          const a = answer(call.request);
          if ('hang' in a) return;
          if ('status' in a) return call.emit('error', statusOf(a));
          const items = Array.isArray(a.reply) ? a.reply : [a.reply];
          // The stream's end: OK, or the status `thenStatus` after every message.
          const end = (): void => {
            if (a.thenStatus === undefined) call.end();
            else call.emit('error', statusOf({ status: a.thenStatus }));
          };
          if (a.gapMs === undefined) {
            for (const item of items) call.write(item);
            end();
            return;
          }
          // Paced: one message, then `gapMs` before the next.
          const next = (i: number): void => {
            if (i === items.length) end();
            else if (!call.cancelled) {
              call.write(items[i] as JsonValue);
              setTimeout(next, a.gapMs, i + 1);
            }
          };
          next(0);
        }) as grpc.UntypedHandleCall
      : ((call: grpc.ServerUnaryCall<JsonValue, JsonValue>, callback: grpc.sendUnaryData<JsonValue>) => {
          const a = answer(call.request);
          if ('hang' in a) return;
          if ('status' in a) return callback(statusOf(a));
          callback(null, a.reply);
        }) as grpc.UntypedHandleCall;
  }
  server.addService(definition, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))));
  return { target: `127.0.0.1:${port}`, calls, close: async () => server.forceShutdown() };
}

/** A v1.0 card (JSON) listing only a GRPC interface at `target`. */
export function grpcCard(name: string, target: string): Record<string, unknown> {
  return {
    name, description: 'gRPC fault agent', version: '1.0.0',
    supportedInterfaces: [{ url: target, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
  };
}

/** A completed v1.0 Task in ProtoJSON. */
export function completedTask(id: string): JsonValue {
  return { id, contextId: 'ctx', status: { state: 'TASK_STATE_COMPLETED' } };
}
