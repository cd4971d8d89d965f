/**
 * a2a-resilient — a resilient client for A2A (Agent2Agent) agents, v1.0 and v0.3, over JSON-RPC,
 * REST (HTTP+JSON) and gRPC. Every remote failure is one structured error; transient failures are
 * retried safely within the caller's deadline; dead agents are cut off by per-agent circuit breakers.
 *
 * @module a2a-resilient
 */

// client
export { A2AClient } from './client/a2a-client.js';
export type { ClientProtocol } from './client/endpoint.js';
export type { CallOptions, ClientOptions, HeadersContext, HeadersOption, RedirectOptions } from './client/options.js';
export type { GrpcOptions } from './protocol/grpc/grpc-target.js';
export type { PemInput, TlsOptions } from './transport/tls-options.js';
export type { AuthChallenge } from './errors/auth-refusal.js';
export { parseWwwAuthenticate } from './errors/www-authenticate.js';
export type { ParsedChallenge } from './errors/www-authenticate.js';
export type { AgentInput } from './client/input.js';
export type { Conversation } from './client/conversation.js';
export type { ConversationInit, ConversationSnapshot } from './client/conversation-state.js';

// errors
export { A2AClientError, isA2AClientError } from './errors/a2a-client-error.js';
export type { A2AClientErrorInit, FanOutFailure } from './errors/a2a-client-error.js';
export { ERROR_KINDS } from './errors/kinds.js';
export type { A2AErrorKind, ConnectionReason, FailurePhase, ValidationIssue } from './errors/kinds.js';
export type { ResponseError } from './errors/a2a-client-error.js';
export type { ProblemDetails, RpcStatus } from './errors/problem.js';
export type { ErrorDetails, FieldViolation } from './errors/rpc-details.js';

// events and converters
export { isTerminalError } from './convert/agent-event.js';
export type { AgentEvent } from './convert/agent-event.js';
export type { ConverterContext, EventConverter } from './convert/converter.js';
export { defaultConverter } from './convert/default-converter.js';
export { ConverterRegistry } from './convert/registry.js';
export type { RegisterOptions } from './convert/registry.js';
export { responseErrorFromMetadata } from './convert/response-error-from-metadata.js';
export { responseErrorFromClientError } from './convert/from-client-error.js';

// signed agent cards
export { verifyAgentCard } from './client/card-signature.js';
export type { CardJwk, CardKeyResolver, CardSignatureOptions, CardVerificationKey } from './client/card-signature.js';

// tracing (the web build cannot look the API up: hand it over)
export { useOpenTelemetry } from './tracing/use-open-telemetry.js';
export type { OpenTelemetryApiModule } from './tracing/use-open-telemetry.js';

// coordinator
export { fanOut } from './coordinator/fan-out.js';
export type { FanOutEntry, FanOutOptions, FanOutResult, FanOutTarget } from './coordinator/fan-out.js';
export { wrapDownstreamError, unwrapDownstreamError, DOWNSTREAM_ERROR_CODE } from './coordinator/downstream-error.js';
export type { DownstreamErrorData, DownstreamFailure, JsonRpcErrorObject } from './coordinator/downstream-error.js';
export { DEADLINE_HEADER, readDeadline } from './protocol/deadline-header.js';

// resilience
export { classify } from './resilience/classify.js';
export type { Classification, ClassifyContext } from './resilience/classify.js';
export type { RetryContext, RetryRule, RetryRuleAnswer, RetryVerdict } from './resilience/retry-rule.js';
export type { CircuitBreakerOptions, RetryBudgetOptions, RetryOptions } from './resilience/options.js';
export type { CancelEvent, ResilienceEvent, SendLookupEvent, SharedStateEvent } from './resilience/event-types.js';
export type { SharedState, SharedStateStatus } from './resilience/shared-state.js';

// transport settings
export { DEFAULT_LIMITS, DEFAULT_TIMEOUTS } from './transport/settings.js';
export type { Limits, Timeouts } from './transport/settings.js';

// the protocol model
export { TERMINAL_STATES, INTERRUPTED_STATES } from './protocol/model.js';
export type * from './protocol/model.js';
export type * from './protocol/method-params.js';
