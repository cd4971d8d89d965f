/** HTTP plumbing shared by the JSON-RPC and REST bindings: headers, sending, reading JSON and SSE bodies. */
import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { asAuthRefusal } from '../errors/auth-refusal.js';
import { redactFailure } from '../errors/redact.js';
import { isRedirectStatus, rpcRedirectError } from '../errors/redirect.js';
import type { DecodedBatch, EngineRequest, EngineResponse, SseEvent } from '../transport/engine.js';
import type { AttemptContext } from './binding.js';
import type { StreamEvent } from './model.js';
import type { VersionCodec } from './codec.js';
import { errorFromBody, streamErrorFrame } from './response-errors.js';
import { bounded, parseJsonText } from './validate.js';
import { isSseType, mediaType, SSE_TYPE } from '../util/media-type.js';

export { isSseType, SSE_TYPE };

/**
 * `Accept` of a request for a JSON answer: A2A v1.0.1 prefers `application/a2a+json`, today's servers
 * send `application/json`; both are read alike ({@link isJsonType}). Requests themselves are sent as
 * `application/json`, the one type every server parses.
 */
export const JSON_ACCEPT = 'application/json, application/a2a+json';

/** Request headers for one call: the caller's, then content negotiation, version and extensions. */
export function requestHeaders(codec: VersionCodec, ctx: AttemptContext, accept: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in ctx.headers) headers[name] = ctx.headers[name] as string;
  headers['accept'] = accept;
  for (const name in codec.versionHeaders) headers[name] = codec.versionHeaders[name] as string;
  if (hasBody) headers['content-type'] = 'application/json';
  if (ctx.extensions !== undefined && ctx.extensions.length > 0) headers[codec.extensionsHeader] = ctx.extensions.join(', ');
  return headers;
}

/** Sends one request through the context's engine. @throws A2AClientError (transport kinds). */
export function send(ctx: AttemptContext, method: EngineRequest['method'], url: string, headers: Record<string, string>, body?: string): Promise<EngineResponse> {
  const request: EngineRequest = { method, url, headers, timeouts: ctx.timeouts, limits: ctx.limits };
  if (body !== undefined) request.body = body;
  if (ctx.scope !== undefined) request.scope = ctx.scope;
  return ctx.engine.send(request);
}

/** True for `application/json`, `application/a2a+json` and other `+json` types. */
export function isJsonType(headers: Record<string, string>): boolean {
  const t = mediaType(headers);
  return t === 'application/json' || t.endsWith('+json');
}

/**
 * Reads a whole unary body. Non-2xx → the typed error of {@link errorFromBody}; a 2xx body that is not
 * JSON (by content type or syntax) → `invalid-response`. An empty 2xx body reads as `undefined`.
 * @throws A2AClientError
 */
export async function readJson(res: EngineResponse, codec: VersionCodec, method: string): Promise<unknown> {
  if (isRedirectStatus(res.status)) {
    // Never followed (see attemptFailure), so its body says nothing: released unread.
    await res.close();
    return jsonOf('', res, codec, method);
  }
  return jsonOf(await res.text(), res, codec, method);
}

/**
 * The JSON of a whole body already read as `text`, as {@link readJson} makes it.
 * @throws A2AClientError
 */
export function jsonOf(text: string, res: EngineResponse, codec: VersionCodec, method: string): unknown {
  const src = { version: codec.version, method, headers: res.headers };
  if (res.status < 200 || res.status >= 300) throw errorFromBody(res.status, text, { ...src, status: res.status });
  if (text.trim() === '') return undefined;
  if (!isJsonType(res.headers)) throw contentTypeError(res, text, method, `content-type ${contentTypeOf(res)} is not JSON`);
  return parseJsonText(text, method, res.status);
}

/** An SSE frame as an error when it is one (`event: error`). */
export function sseErrorFrame(ev: SseEvent, res: EngineResponse, codec: VersionCodec, method: string): A2AClientError | undefined {
  if (ev.event !== 'error') return undefined;
  return streamErrorFrame(ev.data, { version: codec.version, method, headers: res.headers });
}

/**
 * Decodes one batch of SSE frames into stream events; `decode` turns one frame's JSON into an event.
 * An `event: error` frame, a frame that is not JSON or one that fails `decode` is the failure that
 * ends the stream, reported after the events before it. Synchronous: the bindings hand it to the
 * response's `decoded()`, which runs it inside its read loop.
 */
export function decodeFrames(
  batch: readonly SseEvent[],
  res: EngineResponse,
  codec: VersionCodec,
  method: string,
  decode: (json: unknown) => StreamEvent,
): DecodedBatch<StreamEvent> {
  const items: StreamEvent[] = [];
  for (const ev of batch) {
    if (ev.event === 'error') return { items, failure: { error: sseErrorFrame(ev, res, codec, method) } };
    const data = ev.data;
    // Blank data is skipped; JSON starts with a printable ASCII character, so only other starts need trim().
    const first = data.charCodeAt(0);
    if (data.length === 0 || ((first <= 32 || first > 126) && data.trim() === '')) continue;
    try {
      items.push(decode(parseJsonText(data, method, res.status)));
    } catch (error) {
      return { items, failure: { error } };
    }
  }
  return { items };
}

/**
 * An attempt's failure as it leaves a binding: `method` added to an error that lacks it, an
 * authentication refusal (401 / 403 `insufficient_scope` with a challenge) made kind `http` naming
 * the scheme ({@link asAuthRefusal}), and the values of the headers the attempt sent (the caller's:
 * tokens, API keys) and its URL's secrets redacted from all of it ({@link redactFailure}). A redirect
 * (301, 302, 303, 307, 308) is never followed: it becomes the kind `http` error carrying `location`
 * ({@link rpcRedirectError}). Every failure of a request goes through here, so errors, events and
 * `onEvent` payloads built from it hold no header value. Runs only on failure.
 */
export function attemptFailure(error: unknown, method: string, ctx: AttemptContext): unknown {
  const named = isA2AClientError(error) && error.method === undefined ? error.with({ method }) : error;
  return redactFailure(asAuthRefusal(rpcRedirectError(named, ctx.url)), ctx.headers, ctx.url);
}

/** The `invalid-response` error for a stream answered with something other than SSE; `text` is its body as received. */
export function notSse(res: EngineResponse, text: string, method: string): A2AClientError {
  return contentTypeError(res, text, method, `expected ${SSE_TYPE}, got ${contentTypeOf(res)}`);
}

/** The response's content type, bounded for an error message. */
function contentTypeOf(res: EngineResponse): string {
  return bounded(res.headers['content-type'] ?? '(none)', 100);
}

/** The `invalid-response` error (field `content-type`) for a body of the wrong kind. */
function contentTypeError(res: EngineResponse, text: string, method: string, problem: string): A2AClientError {
  return new A2AClientError({
    kind: 'invalid-response',
    message: `Invalid response: ${problem}`,
    field: 'content-type',
    status: res.status,
    headers: res.headers,
    bodyText: bounded(text),
    method,
    phase: 'after-send',
  });
}
