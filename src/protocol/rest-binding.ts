/** The HTTP+JSON (REST) binding, parameterised by a version codec (v1.0 or v0.3 with its `/v1` prefix). */
import type { EngineResponse } from '../transport/engine.js';
import type { AttemptContext, Binding, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from './binding.js';
import type { VersionCodec } from './codec.js';
import { attemptFailure, isSseType, JSON_ACCEPT, jsonOf, notSse, readJson, requestHeaders, send, decodeFrames, SSE_TYPE } from './exchange.js';
import { unsupportedMethod } from './jsonrpc-binding.js';
import { deferredIterable } from './deferred-iterable.js';
import type { ProtocolVersion, StreamEvent } from './model.js';
import { joinUrl, streamRoutes, tenantPrefix, unaryRoutes, type RestRoute, type StreamRoutes, type UnaryRoutes } from './rest-routes.js';
import { cleanUpAfter } from '../util/clean-up-after.js';

/** REST binding for one protocol version. Every failure is an `A2AClientError`. */
export class RestBinding implements Binding {
  readonly version: ProtocolVersion;
  readonly binding = 'HTTP+JSON' as const;
  private readonly unaryRoutes: UnaryRoutes;
  private readonly streamRoutes: StreamRoutes;

  /**
   * @param tenant The selected interface's tenant (v1.0): every route under `/{tenant}/…`.
   */
  constructor(
    private readonly codec: VersionCodec,
    private readonly tenant?: string,
  ) {
    this.version = codec.version;
    this.unaryRoutes = unaryRoutes(codec.version);
    this.streamRoutes = streamRoutes(codec.version);
  }

  private exchange(ctx: AttemptContext, route: RestRoute, accept: string, encoded: unknown): Promise<EngineResponse> {
    const body = route.body ? JSON.stringify(encoded ?? {}) : undefined;
    const url = joinUrl(ctx.url, `${tenantPrefix(this.tenant)}${route.path}`);
    return send(ctx, route.verb, url, requestHeaders(this.codec, ctx, accept, body !== undefined), body);
  }

  async unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], ctx: AttemptContext): Promise<UnaryMethods[M]['result']> {
    const routeOf: ((p: UnaryMethods[M]['params'], encoded: unknown) => RestRoute) | undefined = this.unaryRoutes[method];
    if (routeOf === undefined) throw unsupportedMethod(this.codec, this.binding, method);
    const encode: (p: UnaryMethods[M]['params']) => unknown = this.codec.encode[method];
    const encoded = encode(params);
    try {
      const res = await this.exchange(ctx, routeOf(params, encoded), JSON_ACCEPT, encoded);
      const json = await readJson(res, this.codec, method);
      const decode: (json: unknown) => UnaryMethods[M]['result'] = this.codec.decode[method];
      return decode(json);
    } catch (error) {
      throw attemptFailure(error, method, ctx);
    }
  }

  stream<M extends StreamMethod>(method: M, params: StreamMethods[M], ctx: AttemptContext): AsyncIterable<StreamEvent[]> {
    // Sent on the first read; from then on reads go straight to the response's decoding read loop.
    return deferredIterable(async () => {
      try {
        const routeOf: (p: StreamMethods[M]) => RestRoute = this.streamRoutes[method];
        const encode: (p: StreamMethods[M]) => unknown = this.codec.encodeStream[method];
        const encoded = encode(params);
        const route = routeOf(params);
        let res = await this.exchange(ctx, route, SSE_TYPE, encoded);
        if (res.status === 405 && route.fallbackVerb !== undefined) {
          await res.close();
          res = await this.exchange(ctx, { ...route, verb: route.fallbackVerb }, SSE_TYPE, encoded);
        }
        if (!isSseType(res.headers) || res.status < 200 || res.status >= 300) {
          try {
            const text = await res.text();
            jsonOf(text, res, this.codec, method);
            throw notSse(res, text, method);
          } catch (error) {
            await cleanUpAfter(error, () => res.close());
            throw error;
          }
        }
        const decode = (json: unknown): StreamEvent => this.codec.decodeStreamEvent(json);
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
