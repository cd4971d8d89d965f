import type { EngineOptions, HttpEngine } from './engine.js';
import { FetchEngine } from './fetch-engine.js';
import { UndiciEngine } from './undici-engine.js';

/**
 * Picks the engine for a client: the fetch engine when `options.fetch` is set, else the undici engine
 * (over `options.dispatcher` if given, which the engine will not close; with `options.compression`
 * it sends `Accept-Encoding`, fetch sends its own).
 */
export function createEngine(options: EngineOptions = {}): HttpEngine {
  if (options.fetch !== undefined) return new FetchEngine(options.fetch);
  return new UndiciEngine({ dispatcher: options.dispatcher, compression: options.compression });
}
