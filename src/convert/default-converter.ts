import type { EventConverter } from './converter.js';
import { convertStreamItem, endStream } from './stream-convert.js';
import { convertUnary } from './unary-convert.js';

/**
 * The converter used unless another is chosen: rebuilds `ResponseError` from structured task
 * failures (outer `metadata`, then `status.message.metadata`, then the status text) for unary results and streams, and reports streams that end too early. Its
 * methods never throw. Provider converters may wrap it and post-process its events.
 */
export const defaultConverter: EventConverter = Object.freeze({
  name: 'default',
  convert: convertUnary,
  convertStream: convertStreamItem,
  end: endStream,
});
