import type { ClientOptions } from '../client/options.js';

/**
 * Options of the `a2a-resilient/a2a-js` transports and card resolver: an `A2AClient`'s options
 * (timeouts, retry, circuit breaker, headers, TLS, `sharedState`, …). `protocol` is left out: the
 * official `ClientFactory` chooses the interface, and the transport speaks what that interface says.
 * The per-agent breaker and retry budget are keyed by the agent's origin, so they are shared with every
 * other client of the same agent in this process (and across processes with `sharedState`).
 */
export type ResilientTransportOptions = Omit<ClientOptions, 'protocol'>;
