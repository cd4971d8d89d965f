import { resolveConverter } from '../convert/registry.js';
import type { Binding } from '../protocol/binding.js';
import { createBinding } from '../protocol/create-binding.js';
import type { AgentCard } from '../protocol/model.js';
import { createResilience, type Resilience } from '../resilience/pipeline.js';
import { agentStatesOf } from '../resilience/shared-state.js';
import { createEngine } from '../transport/create-engine.js';
import { keepDeadlineName } from '../transport/deadline-name.js';
import type { HttpEngine } from '../transport/engine.js';
import { DEFAULT_LIMITS, DEFAULT_TIMEOUTS, withSettings, type Timeouts } from '../transport/settings.js';
import { AgentCalls } from './agent-calls.js';
import { ClientStreams } from './client-streams.js';
import { credentialsFor } from './credential-scope.js';
import { endpointOf, type ClientProtocol } from './endpoint.js';
import type { ClientOptions } from './options.js';
import type { TaskCallsDeps } from './task-calls.js';

/** Where a client's card came from, when it was discovered: the engine that fetched it, and the URLs. */
export interface CardOrigin {
  engine: HttpEngine;
  /** The URL the caller gave `connect`. */
  baseUrl: string;
  /** The URL that served the card, after redirects. */
  finalUrl: string;
}

/** What one client is made of, wired together: each part is handed the ones below it. */
export interface ClientParts {
  protocol: ClientProtocol;
  timeouts: Readonly<Timeouts>;
  engine: HttpEngine;
  binding: Binding;
  resilience: Resilience;
  calls: AgentCalls;
  tasks: TaskCallsDeps;
  streams: ClientStreams;
}

/**
 * The parts of a client for `card` under `options`: the negotiated interface (a relative interface URL
 * resolves against where the card was served from), the timeouts with the defaults filled in, the
 * engine (the discovering one, else a new one), the binding, the agent's pipeline, its calls and streams.
 * @throws A2AClientError kind `card` or `unsupported`, as `endpointOf` and `createResilience` do.
 */
export function clientParts(card: AgentCard, options: ClientOptions, origin?: CardOrigin): ClientParts {
  const endpoint = endpointOf(card, options, origin?.finalUrl);
  const protocol: ClientProtocol = { ...endpoint.selected, url: endpoint.url };
  const timeouts = Object.freeze(keepDeadlineName(withSettings('timeouts', DEFAULT_TIMEOUTS, options.timeouts), options.timeouts));
  const engine = origin?.engine ?? createEngine(options);
  const binding = createBinding(protocol.version, protocol.binding, protocol.tenant, endpoint.grpc && { target: endpoint.grpc, tls: options.tls, grpc: options.grpc });
  const resilience = createResilience(endpoint.origin, card.name, {
    retry: options.retry,
    circuitBreaker: options.circuitBreaker,
    maxConcurrent: options.maxConcurrent,
    maxQueued: options.maxQueued,
    onEvent: options.onEvent,
    store: options.sharedState ? agentStatesOf(options.sharedState) : undefined,
    card,
  });
  const calls = new AgentCalls({
    name: card.name,
    card,
    url: protocol.url,
    // The caller's headers only where it pointed or trusts (docs/networks.md, "Credentials").
    credentials: credentialsFor(endpoint.origin, options, origin?.baseUrl),
    engine,
    binding,
    resilience,
    options,
    timeouts,
    limits: withSettings('limits', DEFAULT_LIMITS, options.limits),
  });
  const tasks: TaskCallsDeps = { name: card.name, card, calls, timeouts };
  const streams = new ClientStreams({ ...tasks, calls, converter: resolveConverter(card, options), options });
  return { protocol, timeouts, engine, binding, resilience, calls, tasks, streams };
}
