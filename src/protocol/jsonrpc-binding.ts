/** The JSON-RPC 2.0 binding, parameterised by a version codec (v1.0 or v0.3). */
import { A2AClientError } from '../errors/a2a-client-error.js';
import type { AttemptContext, Binding, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from './binding.js';
import type { AnyMethod, VersionCodec } from './codec.js';
import { attemptFailure, isJsonType, JSON_ACCEPT, isSseType, jsonOf, notSse, readJson, requestHeaders, send, decodeFrames, SSE_TYPE } from './exchange.js';
import { deferredIterable } from './deferred-iterable.js';
import type { ProtocolVersion, StreamEvent } from './model.js';
import { jsonRpcError, readEnvelope } from './response-errors.js';
import { isObject } from './wire-check.js';
import { cleanUpAfter } from '../util/clean-up-after.js';

let counter = 0;

/**
 * A fresh request id per request, from a process-wide counter. An id only pairs a response with its
 * request on one HTTP exchange; a number keeps every frame of a stream short (the server echoes it).
 */
function nextId(): number {
  counter = counter >= Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
  return counter;
}

/** Unsupported-method error, raised before anything is sent. */
export function unsupportedMethod(codec: VersionCodec, binding: string, method: string): A2AClientError {
  return new A2AClientError({
    kind: 'unsupported',
    message: `${method} is not available in A2A ${codec.version} (${binding})`,
    method,
    phase: 'before-send',
  });
}

/** JSON-RPC binding for one protocol version. Every failure is an `A2AClientError`. */
export class JsonRpcBinding implements Binding {
  readonly version: ProtocolVersion;
  readonly binding = 'JSONRPC' as const;

  /**
   * @param tenant The selected interface's tenant (v1.0): the `tenant` member of every request's
   * `params` — each v1.0 request message has one (`a2a.proto`, field `tenant`).
   */
  constructor(
    private readonly codec: VersionCodec,
    private readonly tenant?: string,
  ) {
    this.version = codec.version;
  }

  private request(method: AnyMethod, encoded: unknown): { id: number; body: string } {
    const name = this.codec.rpcMethods[method];
    if (name === undefined) throw unsupportedMethod(this.codec, this.binding, method);
    const id = nextId();
    // v1.0 encoders always give an object; the tenant is the interface's, whatever the encoder wrote.
    const params = this.tenant === undefined || !isObject(encoded) ? encoded : { ...encoded, tenant: this.tenant };
    return { id, body: JSON.stringify({ jsonrpc: '2.0', id, method: name, params }) };
  }

  /** Validates an envelope; throws its error object or an id mismatch, returns `result`. */
  private result(json: unknown, id: number, method: string, status: number, headers: Record<string, string>): unknown {
    const env = readEnvelope(json, method);
    if (env.error && (env.id === null || env.id === undefined || env.id === id)) {
      throw jsonRpcError(env.error, { version: this.version, method, status, headers });
    }
    if (env.id !== id) {
      throw new A2AClientError({
        kind: 'invalid-response',
        message: 'Invalid response: JSON-RPC id does not match the request',
        field: 'id',
        method,
        status,
        phase: 'after-send',
      });
    }
    if (env.error) throw jsonRpcError(env.error, { version: this.version, method, status, headers });
    return env.result;
  }

  async unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], ctx: AttemptContext): Promise<UnaryMethods[M]['result']> {
    const encode: (p: UnaryMethods[M]['params']) => unknown = this.codec.encode[method];
    const { id, body } = this.request(method, encode(params));
    try {
      const res = await send(ctx, 'POST', ctx.url, requestHeaders(this.codec, ctx, JSON_ACCEPT, true), body);
      const json = await readJson(res, this.codec, method);
      const decode: (json: unknown) => UnaryMethods[M]['result'] = this.codec.decode[method];
      return decode(this.result(json, id, method, res.status, res.headers));
    } catch (error) {
      throw attemptFailure(error, method, ctx);
    }
  }

  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], ctx: AttemptContext): AsyncIterable<StreamEvent[]> {
    // Sent on the first read; from then on reads go straight to the response's decoding read loop.
    return deferredIterable(async () => {
      try {
        const encode: (p: StreamMethods[M]) => unknown = this.codec.encodeStream[method];
        const { id, body } = this.request(method, encode(params));
        const res = await send(ctx, 'POST', ctx.url, requestHeaders(this.codec, ctx, SSE_TYPE, true), body);
        if (!isSseType(res.headers) || res.status < 200 || res.status >= 300) {
          try {
            // A server may answer a stream request with a plain JSON-RPC error (or an HTTP error).
            const text = await res.text();
            const json = jsonOf(text, res, this.codec, method);
            if (isJsonType(res.headers)) this.result(json, id, method, res.status, res.headers);
            throw notSse(res, text, method);
          } catch (error) {
            await cleanUpAfter(error, () => res.close());
            throw error;
          }
        }
        const decode = (json: unknown): StreamEvent => this.codec.decodeStreamEvent(this.result(json, id, method, res.status, res.headers));
        return res.decoded(
          (events) => decodeFrames(events, res, this.codec, method, decode),
          (error) => attemptFailure(error, method, ctx),
        );
      } catch (error) {
        throw attemptFailure(error, method, ctx);
      }
    });
  }
}
