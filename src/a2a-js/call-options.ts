import type { CallOptions } from '../client/options.js';

/** What both SDK generations pass to every transport method (`RequestOptions`). */
export interface SdkRequestOptions {
  /** Ends the call (and a stream) at once. */
  signal?: AbortSignal;
  /** Sent as HTTP headers (gRPC metadata): `A2A-Extensions`, an interceptor's `Authorization`, … */
  serviceParameters?: Record<string, string>;
}

/**
 * The call options of one transport call. `A2A-Version` is left out of the headers: the binding sends
 * the version it speaks (the same one the transport reports as `protocolVersion`).
 */
export function callOptionsOf(options: SdkRequestOptions | undefined): CallOptions {
  if (options === undefined) return {};
  const call: CallOptions = {};
  if (options.signal !== undefined) call.signal = options.signal;
  const params = options.serviceParameters;
  if (params !== undefined) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) {
      if (name.toLowerCase() !== 'a2a-version' && typeof value === 'string') headers[name] = value;
    }
    call.headers = headers;
  }
  return call;
}
