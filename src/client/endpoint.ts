/** Where a client's calls go: the negotiated interface's URL, and the key of its per-agent state. */
import type { SelectedInterface } from '../protocol/card.js';
import { selectInterface } from '../protocol/card.js';
import type { AgentCard, ProtocolBinding, ProtocolVersion } from '../protocol/model.js';
import { grpcAvailable } from '../protocol/grpc/grpc-support.js';
import { grpcTarget, type GrpcTarget } from '../protocol/grpc/grpc-target.js';
import { interfaceUrl, rejectCredentials } from './card-urls.js';
import type { ClientOptions } from './options.js';

/** The protocol version, binding and endpoint a client talks to. */
export interface ClientProtocol {
  /** The A2A version spoken with the agent: `1.0` or `0.3`. */
  version: ProtocolVersion;
  /** The binding used: `JSONRPC`, `HTTP+JSON` or `GRPC`. */
  binding: ProtocolBinding;
  /** The interface URL calls go to, as the card gives it. */
  url: string;
  /** The interface's `tenant`, when its card entry sets one: sent in every v1.0 request (v0.3 has none). */
  tenant?: string;
}

/** The interface a client uses and where it is. */
export interface Endpoint {
  selected: SelectedInterface;
  /** The URL calls go to (a relative card URL resolved); a gRPC interface's as the card wrote it. */
  url: string;
  /** The origin the agent's breaker, budget and bulkhead are keyed by (`grpc[s]://host:port` for gRPC). */
  origin: string;
  /** The channel target of a gRPC interface. */
  grpc?: GrpcTarget;
}

/**
 * Negotiates the interface from the card (passing gRPC over when its optional peers are missing, or in
 * the web build, and the caller did not ask for it: the next interface the card lists is used) and resolves where it is.
 * @throws A2AClientError kind `unsupported` (no usable interface; credentials in the URL; a plaintext
 * gRPC URL to a remote host without `grpc.insecure`), `card` (a URL that does not resolve).
 */
export function endpointOf(card: AgentCard, options: ClientOptions, cardUrl: string | undefined): Endpoint {
  const preference = options.protocol ?? {};
  let selected: SelectedInterface;
  if (preference.binding === undefined && !grpcAvailable()) {
    try {
      selected = selectInterface(card, { ...preference, skip: 'GRPC' });
    } catch (error) {
      // Nothing but gRPC: choose it, and let the binding say what to install.
      selected = selectInterface(card, preference);
      if (selected.binding !== 'GRPC') throw error;
    }
  } else selected = selectInterface(card, preference);
  if (selected.binding === 'GRPC') {
    const grpc = grpcTarget(selected.url, options.grpc);
    return { selected, url: selected.url, origin: grpc.origin, grpc };
  }
  const url = interfaceUrl(selected.url, cardUrl);
  const endpoint = new URL(url);
  rejectCredentials(endpoint);
  return { selected, url, origin: endpoint.origin };
}
