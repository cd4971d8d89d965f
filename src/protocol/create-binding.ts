/** Picks the binding implementation for a version and wire binding. */
import type { Binding } from './binding.js';
import { JsonRpcBinding } from './jsonrpc-binding.js';
import type { ProtocolBinding, ProtocolVersion } from './model.js';
import { RestBinding } from './rest-binding.js';
import { v03Codec, v03RestCodec } from './v03/codec.js';
import { v1Codec } from './v1/codec.js';

/**
 * The binding for `version` over `binding` (JSON-RPC or HTTP+JSON). Bindings are stateless and
 * reusable. `tenant` is the selected interface's (A2A 1.0.1 §8.3.2: sent in every v1.0 request;
 * v0.3 has no tenant and ignores it).
 */
export function createBinding(version: ProtocolVersion, binding: ProtocolBinding, tenant?: string): Binding {
  const t = version === '1.0' && tenant !== undefined && tenant !== '' ? tenant : undefined;
  if (binding === 'JSONRPC') return new JsonRpcBinding(version === '1.0' ? v1Codec : v03Codec, t);
  return new RestBinding(version === '1.0' ? v1Codec : v03RestCodec, t);
}
