/** Picks the binding implementation for a version and wire binding. */
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { Binding } from './binding.js';
import type { GrpcBindingInit } from './grpc/grpc-binding.js';
import { grpcSupport } from './grpc/grpc-support.js';
import { JsonRpcBinding } from './jsonrpc-binding.js';
import type { ProtocolBinding, ProtocolVersion } from './model.js';
import { RestBinding } from './rest-binding.js';
import { v03Codec, v03RestCodec } from './v03/codec.js';
import { v1Codec } from './v1/codec.js';

/**
 * The binding for `version` over `binding`. JSON-RPC and HTTP+JSON bindings are stateless and
 * reusable; a gRPC one (`grpc`: its target and channel settings) holds a channel lease until
 * `close()`. `tenant` is the selected interface's (A2A 1.0.1 §8.3.2: sent in every v1.0 request;
 * v0.3 has no tenant and ignores it).
 * @throws A2AClientError kind `unsupported` for gRPC when its optional peers are not installed,
 * or in the web build (which has no gRPC binding).
 */
export function createBinding(version: ProtocolVersion, binding: ProtocolBinding, tenant?: string, grpc?: Omit<GrpcBindingInit, 'version' | 'tenant'>): Binding {
  const t = version === '1.0' && tenant !== undefined && tenant !== '' ? tenant : undefined;
  if (binding === 'GRPC') {
    const support = grpcSupport();
    if (grpc === undefined) throw new A2AClientError({ kind: 'unsupported', message: 'a gRPC binding needs its target', phase: 'before-send' });
    return support.binding({ ...grpc, version, tenant: t });
  }
  if (binding === 'JSONRPC') return new JsonRpcBinding(version === '1.0' ? v1Codec : v03Codec, t);
  return new RestBinding(version === '1.0' ? v1Codec : v03RestCodec, t);
}
