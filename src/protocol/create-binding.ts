/** Picks the binding implementation for a version and wire binding. */
import type { Binding } from './binding.js';
import { JsonRpcBinding } from './jsonrpc-binding.js';
import type { ProtocolBinding, ProtocolVersion } from './model.js';
import { RestBinding } from './rest-binding.js';
import { v03Codec, v03RestCodec } from './v03/codec.js';
import { v1Codec } from './v1/codec.js';

/** The binding for `version` over `binding` (JSON-RPC or HTTP+JSON). Bindings are stateless and reusable. */
export function createBinding(version: ProtocolVersion, binding: ProtocolBinding): Binding {
  if (binding === 'JSONRPC') return new JsonRpcBinding(version === '1.0' ? v1Codec : v03Codec);
  return new RestBinding(version === '1.0' ? v1Codec : v03RestCodec);
}
