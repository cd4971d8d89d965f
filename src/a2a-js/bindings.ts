import type { ProtocolBinding } from '../protocol/model.js';

/** The bindings a set of transport factories covers, named as the official factories name them. */
export const BINDINGS: readonly ProtocolBinding[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];
