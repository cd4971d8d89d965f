export { isTerminalError } from './agent-event.js';
export type { AgentEvent } from './agent-event.js';
export type { ConverterContext, EventConverter } from './converter.js';
export { defaultConverter } from './default-converter.js';
export { ConverterRegistry, resolveConverter } from './registry.js';
export type { RegisterOptions } from './registry.js';
export {
  hasStructuredError,
  mergeErrorMetadata,
  readErrorMetadata,
  responseErrorFromMetadata,
} from './response-error-from-metadata.js';
export type { ErrorMetadata } from './response-error-from-metadata.js';
export { errorEvent, responseErrorFromClientError, RESPONSE_ERROR_TYPES } from './from-client-error.js';
export { safeConvert } from './safe-convert.js';
