/**
 * a2a-resilient/a2a-js — this SDK's pipeline inside `@a2a-js/sdk` clients: transport factories and a
 * card resolver for the official `ClientFactory`, 1.x (`resilientTransports`) and 0.3
 * (`resilientTransportsV03`, what `@google/adk`'s `RemoteA2AAgent` uses). Every call gets a deadline,
 * classified retries, the per-agent circuit breaker and retry budget, and exact stream resume; results
 * and errors are the official transports' own.
 *
 * @example
 * import { ClientFactory } from '@a2a-js/sdk/client';
 * import { resilientCardResolver, resilientTransports } from 'a2a-resilient/a2a-js';
 * const factory = new ClientFactory({ transports: resilientTransports({ timeouts: { totalMs: 30_000 } }), cardResolver: resilientCardResolver() });
 * const client = await factory.createFromUrl('http://127.0.0.1:4000');
 *
 * @module a2a-resilient/a2a-js
 */
export { resilientTransports } from './v1/factories.js';
export { resilientTransportsV03 } from './v03/factories.js';
export { resilientCardResolver, type ResilientCardResolver } from './card-resolver.js';
export { SdkV03Error, type V03ErrorResponse } from './v03/errors.js';
export type { ResilientTransportOptions } from './options.js';
export type { SdkRequestOptions } from './call-options.js';
export type { TransportFactoryV03, TransportV03, V03Json, V03MessageSendParams, V03PushConfig, V03TaskParams, V03TaskPushConfig } from './v03/types.js';
