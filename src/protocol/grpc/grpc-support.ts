/**
 * gRPC as the Node build has it: the binding, once its optional peers are found (`grpc-peers.ts`).
 * `create-binding.ts` and the client's choice of interface ask here; the web build has
 * `grpc-support.web.ts` in this module's place (scripts/bundle.mjs): no gRPC, and why.
 */
import type { Binding } from '../binding.js';
import { GrpcBinding, type GrpcBindingInit } from './grpc-binding.js';
import { missingGrpcPeer, missingPeerError } from './grpc-peers.js';

/** What a client gets where it may speak gRPC. */
export interface GrpcSupport {
  /** A gRPC binding (its peers load on its first call). */
  binding(init: GrpcBindingInit): Binding;
}

const NODE_GRPC: GrpcSupport = { binding: (init) => new GrpcBinding(init) };

/** True when a gRPC binding can be made here: this build has one and its peers are installed. */
export function grpcAvailable(): boolean {
  return missingGrpcPeer() === undefined;
}

/**
 * This build's gRPC support, checked synchronously (so that a client constructor can pass a gRPC
 * interface over for another one).
 * @throws A2AClientError kind `unsupported`: naming the peer to install (in the web build: saying it
 * has no gRPC).
 */
export function grpcSupport(): GrpcSupport {
  const name = missingGrpcPeer();
  if (name !== undefined) throw missingPeerError(name);
  return NODE_GRPC;
}
