/**
 * Maps a V8 cpuprofile call frame (url + function name) to a cost bucket of the streaming path, by
 * the source file it runs in (dist/src/<area>/<file>.js for ours). First matching rule wins; the
 * table IS the documentation of the mapping:
 *   read      undici (dispatcher, llhttp), node:net / streams / stream_base, our transport files
 *   SSE parse eventsource-parser, our sse-reader / sse-event-cap, TextDecoder, string_decoder
 *   JSON.parse the JSON.parse builtin when it shows as a frame of its own, and ours `parseJsonText`
 *             (validate.js: a try/catch around JSON.parse, where V8 books the builtin's time)
 *   validate  protocol/validate, wire-check, card*, zod
 *   normalise protocol/wire-decode, codec, bindings, exchange, model, response-errors
 *   convert   convert/*, client/flatten, client/event-api
 *   resume    resilience/stream-* and delivered-artifact (resume bookkeeping)
 *   resilience the other resilience/* files (pipeline, retry, breaker, budget, ...)
 *   official  @a2a-js/sdk code
 *   gc        (garbage collector)
 *   other     everything else (client/*, tracing, node internals not listed, bench code, (program))
 */

/** [bucket, test(url, functionName)] in priority order. */
export const BUCKET_RULES = [
  ['gc', (u, f) => f === '(garbage collector)'],
  ['JSON.parse', (u, f) => (u === '' && (f === 'parse' || f === 'JSONParse')) || (f === 'parseJsonText' && /\/protocol\/validate\.js/.test(u))],
  ['SSE parse', (u) => /eventsource-parser|\/transport\/sse-(reader|event-cap)\.js|node:internal\/encoding|node:string_decoder/.test(u)],
  ['read', (u) => /undici|node:net|node:internal\/(streams|stream_base_commons|net|js_stream_socket|timers|process\/task_queues)|node:stream|node:events|node:internal\/event_target|node:_http|\/transport\/[a-z-]+\.js/.test(u)],
  ['validate', (u) => /\/protocol\/(validate|wire-check|card[a-z-]*)\.js|zod/.test(u)],
  ['normalise', (u) => /\/protocol\/(wire-decode|codec|jsonrpc-binding|rest-binding|rest-routes|binding|create-binding|exchange|model|opt|response-errors|error-codes|deferred-iterable)\.js/.test(u)],
  ['convert', (u) => /\/convert\/|\/client\/(flatten|event-api)\.js/.test(u)],
  ['resume', (u) => /\/resilience\/(stream-[a-z]+|delivered-artifact)\.js/.test(u)],
  ['resilience', (u) => /\/resilience\//.test(u)],
  ['official', (u) => /@a2a-js/.test(u)],
];

/** Bucket names in print order. */
export const BUCKETS = ['read', 'SSE parse', 'JSON.parse', 'validate', 'normalise', 'convert', 'resume', 'resilience', 'official', 'gc', 'other'];

/** The bucket of one call frame. */
export function bucketOf(url, functionName) {
  for (const [name, test] of BUCKET_RULES) if (test(url ?? '', functionName ?? '')) return name;
  return 'other';
}
