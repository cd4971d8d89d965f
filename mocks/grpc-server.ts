/**
 * The loopback gRPC server of a `binding: 'GRPC'` mock agent: a `@grpc/grpc-js` Server serving the
 * version's A2A service (v1.0 `lf.a2a.v1.A2AService`, v0.3 `a2a.v1.A2AService`) with the gRPC
 * binding's own codecs in the other direction (request bytes → ProtoJSON, answer ProtoJSON → bytes).
 * Connections are accepted by a `node:net` server on 127.0.0.1 and handed to grpc-js through its
 * public connection injector, so a `reset()` scenario or a stream `dropAfter` can destroy the very
 * connection that carries the call (grpc-js exposes no per-call socket). Loaded with `import()` only
 * when such a mock listens: `@grpc/grpc-js` and `@bufbuild/protobuf` stay optional peers.
 */
import * as grpc from '@grpc/grpc-js';
import { createServer, type Socket } from 'node:net';
import type { JsonValue } from '@bufbuild/protobuf';
import { encodeStatusDetails, type GrpcMethodCodec } from '../src/protocol/grpc/grpc-codec.js';
import { runtime } from '../src/protocol/grpc/grpc-runtime.js';
import type { ProtocolVersion } from '../src/protocol/model.js';
import type { MockCall } from './core.js';
import type { WireEncoder } from './encode.js';
import { grpcStatusForRpc, GRPC_CODE, type GrpcStatusOut } from './grpc-errors.js';
import { answerGrpc, type GrpcSink } from './grpc-respond.js';
import { grpcMethodOf, grpcParams } from './grpc-wire.js';
import type { Outcome, ScenarioContext } from './scenarios.js';

/** What the gRPC server needs from a mock agent. */
export interface GrpcMockCore {
  readonly version: ProtocolVersion;
  readonly streaming: boolean;
  /** Encodes results for the version (v1.0 ProtoJSON, v0.3 proto-style ProtoJSON). */
  readonly encoder: WireEncoder;
  /** Records the call and picks its outcome (never rejects). */
  decide(call: Omit<MockCall, 'at'>, signal: AbortSignal): Promise<{ outcome: Outcome; ctx: ScenarioContext }>;
}

/** A running mock gRPC server. */
export interface GrpcListening {
  /** `127.0.0.1:<port>`, the card's gRPC interface URL (A2A 1.0.2 `host:port` form). */
  target: string;
  /** Destroys every connection (hanging calls included) and stops the server. Idempotent. */
  close(): Promise<void>;
}

function textOf(md: grpc.Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(md.getMap())) if (typeof v === 'string') out[k] = v;
  return out;
}

function statusObject(s: GrpcStatusOut): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  for (const [k, v] of Object.entries(s.trailers)) {
    try {
      metadata.set(k, v);
    } catch (error: unknown) {
      // A header name or value HTTP/2 metadata cannot carry (grpc-js validates both): left out.
      void error;
    }
  }
  if (s.details) metadata.set('grpc-status-details-bin', Buffer.from(encodeStatusDetails(s.details as unknown as JsonValue)));
  return { code: s.code, details: s.message, metadata };
}

const internal = (error: unknown): GrpcStatusOut => ({ code: GRPC_CODE.INTERNAL, message: `mock failed: ${error instanceof Error ? error.message : String(error)}`, trailers: {} });

type AnyCall = grpc.ServerUnaryCall<JsonValue, Buffer> | grpc.ServerWritableStream<JsonValue, Buffer>;

/** Starts the server for `core` on 127.0.0.1 (ephemeral port). Rejects when the port cannot be bound. */
export async function serveGrpc(core: GrpcMockCore): Promise<GrpcListening> {
  const server = new grpc.Server();
  const sockets = new Map<string, Socket>();
  const version = core.version;
  const definition: Record<string, grpc.MethodDefinition<JsonValue, Buffer>> = {};
  const impl: grpc.UntypedServiceImplementation = {};

  const handle = async (rpc: string, codec: GrpcMethodCodec, call: AnyCall, sink: GrpcSink): Promise<void> => {
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    const method = grpcMethodOf(version, rpc);
    if (method === undefined) return sink.fail({ code: GRPC_CODE.UNIMPLEMENTED, message: `Method ${rpc} not implemented`, trailers: {} });
    const headers = textOf(call.metadata);
    const requested = headers['a2a-version'];
    // Like the official server: a v1.0 agent refuses a call without a 1.x version (no header means 0.3).
    if (version === '1.0' && (requested === undefined || !requested.trim().startsWith('1.'))) {
      return sink.fail(grpcStatusForRpc(version, -32009, `The requested A2A protocol version '${requested ?? '0.3'}' is not supported. Supported versions: 1.0`));
    }
    if (method === 'sendStreamingMessage' && !core.streaming) return sink.fail(grpcStatusForRpc(version, -32004, 'Streaming is not supported by this agent'));
    const params = grpcParams(version, method, call.request);
    const { outcome, ctx } = await core.decide({ method, wireMethod: codec.path, params, headers }, abort.signal);
    await answerGrpc({ outcome, ctx, encoder: core.encoder, version, sink });
  };
  const reset = (call: AnyCall): void => {
    sockets.get(call.getPeer())?.destroy();
  };
  const encode = (codec: GrpcMethodCodec, message: unknown): Buffer => Buffer.from(codec.encodeResponse(message as JsonValue));

  for (const [rpc, codec] of runtime.services[version].methods) {
    definition[rpc] = {
      path: codec.path,
      requestStream: false,
      responseStream: codec.serverStreaming,
      originalName: rpc,
      requestSerialize: (json: JsonValue) => Buffer.from(codec.encodeRequest(json)),
      requestDeserialize: (b: Buffer) => codec.decodeRequest(b),
      responseSerialize: (b: Buffer) => b,
      responseDeserialize: (b: Buffer) => b,
    };
    impl[rpc] = codec.serverStreaming
      ? (call: grpc.ServerWritableStream<JsonValue, Buffer>) => {
          const sink: GrpcSink = {
            send: (message) => {
              const bytes = encode(codec, message);
              return new Promise<void>((resolve) => call.write(bytes, () => resolve()));
            },
            end: () => call.end(),
            fail: (s) => call.emit('error', statusObject(s)),
            reset: () => reset(call),
          };
          handle(rpc, codec, call, sink).catch((error: unknown) => sink.fail(internal(error)));
        }
      : (call: grpc.ServerUnaryCall<JsonValue, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
          const sink: GrpcSink = {
            send: (message) => {
              callback(null, encode(codec, message));
              return Promise.resolve();
            },
            end: () => undefined,
            fail: (s) => callback(statusObject(s)),
            reset: () => reset(call),
          };
          handle(rpc, codec, call, sink).catch((error: unknown) => sink.fail(internal(error)));
        };
  }
  server.addService(definition, impl);

  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  const listener = createServer((socket) => {
    // grpc-js names a call's peer `address:port` of the socket it came on.
    const peer = `${socket.remoteAddress ?? ''}:${socket.remotePort ?? ''}`;
    sockets.set(peer, socket);
    socket.once('close', () => sockets.delete(peer));
    injector.injectConnection(socket);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  let closing: Promise<void> | undefined;
  return {
    target: `127.0.0.1:${port}`,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        listener.close(() => resolve());
        for (const s of sockets.values()) s.destroy();
        injector.destroy();
        server.forceShutdown();
      });
      return closing;
    },
  };
}
