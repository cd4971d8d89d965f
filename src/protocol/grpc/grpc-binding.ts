/**
 * The gRPC binding (A2A §10), v1.0 (`lf.a2a.v1.A2AService`) and v0.3 (`a2a.v1.A2AService`): one more
 * implementation of `Binding` under the same pipeline as JSON-RPC and REST. Requests are the version
 * codecs' ProtoJSON turned into protobuf bytes, answers the bytes turned back into ProtoJSON and
 * decoded by the same codecs (one model, one validation). Service parameters travel as metadata:
 * `a2a-version` (v1.0), `a2a-extensions`, the caller's headers, `traceparent`. The peers
 * (`@grpc/grpc-js`, `@bufbuild/protobuf`) load on the first call; the channel is leased from the
 * shared pool then and released by {@link GrpcBinding.close}.
 */
import type { JsonValue } from '@bufbuild/protobuf';
import type { Metadata } from '@grpc/grpc-js';
import { A2AClientError } from '../../errors/a2a-client-error.js';
import type { TlsOptions } from '../../transport/tls-options.js';
import type { AttemptContext, Binding, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from '../binding.js';
import { attemptFailure } from '../exchange.js';
import { unsupportedMethod } from '../jsonrpc-binding.js';
import type { ProtocolVersion, StreamEvent } from '../model.js';
import { grpcStream, grpcUnary, type GrpcCallInit } from './grpc-call.js';
import { acquireChannel, type ChannelLease } from './grpc-channel-pool.js';
import type { GrpcMethodCodec } from './grpc-codec.js';
import { loadGrpcRuntime } from './grpc-peers.js';
import { grpcRequests, type GrpcRequests } from './grpc-requests.js';
import type { GrpcRuntime } from './grpc-runtime.js';
import type { GrpcOptions, GrpcTarget } from './grpc-target.js';

/** HTTP headers that mean nothing (or something else) as gRPC metadata: never copied into it. */
const NOT_METADATA: ReadonlySet<string> = new Set(['accept', 'accept-encoding', 'connection', 'content-length', 'content-type', 'host', 'te', 'transfer-encoding', 'user-agent', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding']);

/** What a gRPC binding connects with. */
export interface GrpcBindingInit {
  version: ProtocolVersion;
  target: GrpcTarget;
  tenant?: string | undefined;
  tls?: TlsOptions | undefined;
  grpc?: GrpcOptions | undefined;
}

interface Leased {
  rt: GrpcRuntime;
  lease: ChannelLease;
}

function encodeFailure(method: string, error: unknown): A2AClientError {
  return new A2AClientError({ kind: 'unsupported', message: `the ${method} request cannot be encoded for gRPC: ${error instanceof Error ? error.message : String(error)}`, method, phase: 'before-send', cause: error });
}

function decodeFailure(method: string, error: unknown): A2AClientError {
  return new A2AClientError({ kind: 'invalid-response', message: `Invalid response: the gRPC message does not decode: ${error instanceof Error ? error.message : String(error)}`, field: 'message', method, phase: 'after-send', cause: error });
}

/** gRPC binding for one protocol version. Every failure is an `A2AClientError`. */
export class GrpcBinding implements Binding {
  readonly version: ProtocolVersion;
  readonly binding = 'GRPC' as const;
  readonly #init: GrpcBindingInit;
  readonly #requests: GrpcRequests;
  #leased: Promise<Leased> | undefined;
  /** What {@link #leased} resolved with, once it has. */
  #ready: Leased | undefined;
  #closed = false;

  constructor(init: GrpcBindingInit) {
    this.version = init.version;
    this.#init = init;
    this.#requests = grpcRequests(init.version, init.tenant);
  }

  /**
   * Loads the peers and leases the channel, once: a promise until the lease is made, then the lease
   * itself (a call then waits for no promise). @throws A2AClientError `unsupported` (a peer missing, or closed).
   */
  #channel(ctx: AttemptContext): Promise<Leased> | Leased {
    if (this.#closed) return Promise.reject(new A2AClientError({ kind: 'unsupported', message: 'the client was closed', phase: 'before-send' }));
    // Leased already: every call after the first goes on without waiting for a promise.
    if (this.#ready !== undefined) return this.#ready;
    if (this.#leased === undefined) {
      const leased = loadGrpcRuntime().then((rt) => {
        const ready = { rt, lease: acquireChannel(rt, { target: this.#init.target, tls: this.#init.tls, grpc: this.#init.grpc, maxReceiveBytes: ctx.limits.maxResponseBytes }) };
        if (!this.#closed) this.#ready = ready;
        return ready;
      });
      this.#leased = leased;
      leased.catch(() => {
        // A failed load is tried again by the next call.
        if (this.#leased === leased) this.#leased = undefined;
      });
    }
    return this.#leased;
  }

  /** Releases the channel (closed when no other client holds it). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#ready = undefined;
    const leased = this.#leased;
    this.#leased = undefined;
    if (leased === undefined) return;
    try {
      (await leased).lease.release();
    } catch {
      // Nothing was leased: the load failed, and that failure went to the call that asked for it.
    }
  }

  #metadata(rt: GrpcRuntime, ctx: AttemptContext): Metadata {
    const md = new rt.grpc.Metadata();
    for (const name in ctx.headers) {
      if (NOT_METADATA.has(name) || name.endsWith('-bin') || name.startsWith(':')) continue;
      md.set(name, ctx.headers[name] as string);
    }
    const codec = this.#requests.codec;
    for (const name in codec.versionHeaders) md.set(name, codec.versionHeaders[name] as string);
    if (ctx.extensions !== undefined && ctx.extensions.length > 0) md.set(codec.extensionsHeader, ctx.extensions.join(','));
    return md;
  }

  #prepare(leased: Leased, method: UnaryMethod | StreamMethod, request: () => unknown, ctx: AttemptContext): { init: GrpcCallInit; bytes: Uint8Array; codec: GrpcMethodCodec } {
    const rpc = this.#requests.rpc[method];
    if (rpc === undefined) throw unsupportedMethod(this.#requests.codec, this.binding, method);
    const { rt, lease } = leased;
    const codec = rt.services[this.version].methods.get(rpc);
    if (codec === undefined) throw unsupportedMethod(this.#requests.codec, this.binding, method);
    let bytes: Uint8Array;
    try {
      // The version codecs write ProtoJSON: plain JSON values by construction.
      bytes = codec.encodeRequest(request() as JsonValue);
    } catch (error) {
      throw encodeFailure(method, error);
    }
    const init: GrpcCallInit = { rt, client: lease.client, target: this.#init.target.target, secure: this.#init.target.secure, method: codec, name: method, metadata: this.#metadata(rt, ctx), timeouts: ctx.timeouts, scope: ctx.scope };
    return { init, bytes, codec };
  }

  async unary<M extends UnaryMethod>(method: M, params: UnaryMethods[M]['params'], ctx: AttemptContext): Promise<UnaryMethods[M]['result']> {
    try {
      const channel = this.#channel(ctx);
      const leased = channel instanceof Promise ? await channel : channel;
      const { init, bytes, codec } = this.#prepare(leased, method, () => this.#requests.unary(method, params), ctx);
      const answer = await grpcUnary(init, bytes);
      let json: JsonValue;
      try {
        json = codec.decodeResponse(answer);
      } catch (error) {
        throw decodeFailure(method, error);
      }
      const decode: (json: unknown) => UnaryMethods[M]['result'] = this.#requests.codec.decode[method];
      return decode(json);
    } catch (error) {
      throw attemptFailure(error, method, ctx);
    }
  }

  async *stream<M extends StreamMethod>(method: M, params: StreamMethods[M], ctx: AttemptContext): AsyncIterable<StreamEvent[]> {
    try {
      const channel = this.#channel(ctx);
      const leased = channel instanceof Promise ? await channel : channel;
      const { init, bytes, codec } = this.#prepare(leased, method, () => this.#requests.stream(method, params), ctx);
      const decodeEvent = this.#requests.codec.decodeStreamEvent;
      for await (const batch of grpcStream(init, bytes)) {
        const events: StreamEvent[] = [];
        let failed: unknown;
        for (const message of batch) {
          try {
            events.push(decodeEvent(codec.decodeResponse(message)));
          } catch (error) {
            failed = error instanceof A2AClientError ? error : decodeFailure(method, error);
            break;
          }
        }
        // A message that does not decode ends the stream after the events before it.
        if (events.length > 0) yield events;
        if (failed !== undefined) throw failed;
      }
    } catch (error) {
      throw attemptFailure(error, method, ctx);
    }
  }
}
