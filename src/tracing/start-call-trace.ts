/**
 * Starting the span of one logical call, following the OpenTelemetry GenAI agent conventions: a
 * CLIENT span `invoke_agent {agent}` for sends and streams (`gen_ai.operation.name`,
 * `gen_ai.agent.name`, `server.address`, `server.port`; `gen_ai.conversation.id` once known), the A2A
 * method name (`GetTask`, …) for the others. With no API installed or no tracer provider registered,
 * nothing is started and nothing allocated: the check is a few property reads per call.
 */
import type { Tracer, TracerProvider } from '@opentelemetry/api';
import { platform } from '../platform/current.js';
import type { CallTrace } from '../resilience/call-trace.js';
import { otelApi, type OtelApi } from './otel-api.js';
import { OtelCallTrace } from './otel-call-trace.js';
import { v1Codec } from '../protocol/v1/codec.js';

/** Who a call goes to: computed once per client. */
export interface TraceTarget {
  /** The agent's name (its card name; for a card fetch, the host). */
  agent: string;
  /** `server.address`: the endpoint's host. */
  address: string;
  /** `server.port`: the endpoint's port (the scheme's default when the URL has none). */
  port: number;
}

/** The target of a URL (its host and port) for `agent`. */
export function traceTarget(agent: string, url: string): TraceTarget {
  try {
    const u = new URL(url);
    const port = u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return { agent, address: u.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    // Not a URL: the span still names the agent.
    return { agent, address: '', port: 0 };
  }
}

/** Span names of the methods that are not sends: the A2A v1.0 method names (card fetches have none of their own). */
const METHOD_NAMES: Readonly<Record<string, string | undefined>> = { ...v1Codec.rpcMethods, getAgentCard: 'GetAgentCard' };

const SENDS: ReadonlySet<string> = new Set(['sendMessage', 'sendStreamingMessage']);

/** The span name of a call. */
export function spanName(method: string, agent: string): string {
  return SENDS.has(method) ? `invoke_agent ${agent}` : (METHOD_NAMES[method] ?? method);
}

/** The tracer of the provider registered now; `undefined` while none is (the API's no-op provider). */
let cached: { delegate: TracerProvider; tracer: Tracer | undefined } | undefined;
let noop: TracerProvider | undefined;

/** The API's global provider is a proxy (of whichever copy of the API registered it) in front of the real one. */
function isProxy(provider: TracerProvider): provider is TracerProvider & { getDelegate(): TracerProvider } {
  return typeof (provider as { getDelegate?: unknown }).getDelegate === 'function';
}

function tracerOf(api: OtelApi): Tracer | undefined {
  const provider = api.trace.getTracerProvider();
  const delegate = isProxy(provider) ? provider.getDelegate() : provider;
  if (cached !== undefined && cached.delegate === delegate) return cached.tracer;
  noop ??= new api.ProxyTracerProvider().getDelegate();
  const isNoop = delegate === noop || delegate.constructor.name === 'NoopTracerProvider';
  cached = { delegate, tracer: isNoop ? undefined : provider.getTracer('a2a-resilient', versionOrUndefined()) };
  return cached.tracer;
}

function versionOrUndefined(): string | undefined {
  try {
    return platform.packageVersion();
  } catch {
    // The version is only a label on the tracer.
    return undefined;
  }
}

/** True when a call started now would be traced (an API installed and a tracer provider registered). */
export function tracingOn(): boolean {
  const api = otelApi();
  return api !== undefined && tracerOf(api) !== undefined;
}

/** `request.message.contextId`: the conversation a send continues, when it names one. */
function requestContextId(request: unknown): string | undefined {
  if (typeof request !== 'object' || request === null || !('message' in request)) return undefined;
  const message = request.message;
  if (typeof message !== 'object' || message === null || !('contextId' in message)) return undefined;
  return typeof message.contextId === 'string' && message.contextId !== '' ? message.contextId : undefined;
}

/**
 * Starts the span of a call, a child of the active context; `undefined` when tracing is off.
 * `request` is the call's parameters (a send's `message.contextId` is the conversation). Never throws.
 */
export function startCallTrace(target: TraceTarget, method: string, request?: unknown): CallTrace | undefined {
  const api = otelApi();
  if (api === undefined) return undefined;
  const tracer = tracerOf(api);
  if (tracer === undefined) return undefined;
  try {
    const parent = api.context.active();
    const span = tracer.startSpan(spanName(method, target.agent), { kind: api.SpanKind.CLIENT }, parent);
    if (span.isRecording()) {
      if (SENDS.has(method)) span.setAttribute('gen_ai.operation.name', 'invoke_agent');
      span.setAttribute('gen_ai.agent.name', target.agent);
      if (target.address !== '') span.setAttribute('server.address', target.address);
      if (target.port !== 0) span.setAttribute('server.port', target.port);
      const conversationId = requestContextId(request);
      if (conversationId !== undefined) span.setAttribute('gen_ai.conversation.id', conversationId);
    }
    return new OtelCallTrace(api, span, parent);
  } catch (error) {
    // A tracer that throws must not fail the call: it runs untraced.
    platform.warn(`a2a-resilient: starting a span failed; the call runs untraced: ${error instanceof Error ? error.message : String(error)}`, 'A2A_RESILIENT_OTEL');
    return undefined;
  }
}
