/** The resilience layer: classification, the per-agent pipeline, breakers, budgets, stream resume. */
export { classify, DEFAULT_RETRYABLE_HTTP, DEFAULT_RETRYABLE_RPC_CODES } from './classify.js';
export type { Classification, ClassifyContext } from './classify.js';
export { createResilience } from './pipeline.js';
export type { AttemptInfo, Resilience, ResilienceOptions, ResilientCall } from './pipeline.js';
export { circuitState, exportCircuit, isCircuitOpen, resetCircuit } from './breaker.js';
export type { BreakerState } from './breaker.js';
export { DIAGNOSTICS_CHANNELS } from './events.js';
export { DEFAULT_BREAKER, DEFAULT_BUDGET, DEFAULT_RETRY, resolveRetry } from './defaults.js';
export { resumableStream, isUnsupported } from './stream-resume.js';
export type { ResumableStreamOptions } from './stream-resume.js';
export type { CircuitBreakerOptions, ResilienceEvent, RetryBudgetOptions, RetryOptions } from './options.js';
