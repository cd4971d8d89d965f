export { fanOut } from './fan-out.js';
export type { FanOutOptions, FanOutResult, FanOutTarget } from './fan-out.js';
export { wrapDownstreamError, unwrapDownstreamError, DOWNSTREAM_ERROR_CODE } from './downstream-error.js';
export type { DownstreamErrorData, DownstreamFailure, JsonRpcErrorObject } from './downstream-error.js';
export { DEADLINE_HEADER, deadlineHeaderValue, readDeadline } from './deadline-header.js';
