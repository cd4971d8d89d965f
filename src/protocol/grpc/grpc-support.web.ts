/**
 * The web build's gRPC: none (scripts/bundle.mjs puts this module in place of `grpc-support.ts`). A
 * card that also lists JSON-RPC or HTTP+JSON falls back to it; a gRPC-only card is `unsupported`.
 */
import { A2AClientError } from '../../errors/a2a-client-error.js';
import type * as NodeBuild from './grpc-support.js';

const NO_GRPC = 'the gRPC binding needs Node (@grpc/grpc-js over node:http2); this build (browser/worker) speaks JSON-RPC and HTTP+JSON only';

/** False: no gRPC binding in this build. */
export const grpcAvailable: typeof NodeBuild.grpcAvailable = () => false;

/** @throws A2AClientError kind `unsupported`: this build has no gRPC. */
export const grpcSupport: typeof NodeBuild.grpcSupport = () => {
  throw new A2AClientError({ kind: 'unsupported', message: NO_GRPC, phase: 'before-send' });
};
