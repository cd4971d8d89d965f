/**
 * Everything the gRPC binding needs from its optional peer dependencies, in one module loaded with
 * `import()` only when a client negotiates the gRPC binding (see `grpc-peers.ts`): `@grpc/grpc-js`
 * (the transport) and `@bufbuild/protobuf` with the descriptors built from `schema/` (the codecs). Nothing else
 * imports this module statically.
 */
import * as grpc from '@grpc/grpc-js';
import { V03_SERVICE, V1_SERVICE } from './schema/descriptors.js';
import { decodeStatusDetails, serviceCodec, type GrpcServiceCodec } from './grpc-codec.js';

/** What the loaded peers provide. */
export interface GrpcRuntime {
  /** The `@grpc/grpc-js` module. */
  readonly grpc: typeof grpc;
  /** The A2A service codecs by protocol version: `lf.a2a.v1` (1.0) and `a2a.v1` (0.3). */
  readonly services: Readonly<Record<'1.0' | '0.3', GrpcServiceCodec>>;
  /** `grpc-status-details-bin` → ProtoJSON `google.rpc.Status`, `undefined` when unreadable. */
  decodeStatusDetails(bytes: Uint8Array): unknown;
}

/** The runtime, built once per process. */
export const runtime: GrpcRuntime = {
  grpc,
  services: { '1.0': serviceCodec(V1_SERVICE), '0.3': serviceCodec(V03_SERVICE) },
  decodeStatusDetails,
};
