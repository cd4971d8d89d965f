import type { StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from './binding.js';
import type { ProtocolVersion, StreamEvent } from './model.js';

/** Every method a binding serves. */
export type AnyMethod = UnaryMethod | StreamMethod;

/** Encoders of unary request parameters into a version's wire shape. */
export type ParamEncoders = { [M in UnaryMethod]: (params: UnaryMethods[M]['params']) => unknown };
/** Encoders of streaming request parameters into a version's wire shape. */
export type StreamParamEncoders = { [M in StreamMethod]: (params: StreamMethods[M]) => unknown };

/** Decoders of a version's unary results into the model. Each throws `invalid-response`. */
export type ResultDecoders = { [M in UnaryMethod]: (json: unknown) => UnaryMethods[M]['result'] };

/**
 * Everything version-specific about one protocol generation: method names, request encoding and
 * response decoding. Bindings (JSON-RPC, REST) are parameterised by one.
 */
export interface VersionCodec {
  readonly version: ProtocolVersion;
  /** JSON-RPC method names; `undefined` marks a method this version lacks (kind `unsupported`). */
  readonly rpcMethods: Readonly<Record<AnyMethod, string | undefined>>;
  /** Request params (JSON-RPC `params`; the REST body where the route has one). */
  readonly encode: ParamEncoders;
  /** Streaming request params. */
  readonly encodeStream: StreamParamEncoders;
  /** Unary result decoders. @throws A2AClientError `invalid-response` / `card`. */
  readonly decode: ResultDecoders;
  /** One stream item (JSON-RPC `result` or REST `data:` payload). @throws A2AClientError `invalid-response`. */
  decodeStreamEvent(json: unknown): StreamEvent;
  /** Extensions header name. */
  readonly extensionsHeader: string;
  /** Extra headers sent on every call (v1.0: `a2a-version`). */
  readonly versionHeaders: Readonly<Record<string, string>>;
}
