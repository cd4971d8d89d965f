import type { ResolvedSendParams, StreamMethod, StreamMethods, UnaryMethod, UnaryMethods } from './binding.js';
import type { ProtocolVersion, StreamEvent } from './model.js';
import type { SendMessageConfiguration } from './method-params.js';
import { opt } from './opt.js';

/** Every method a binding serves. */
export type AnyMethod = UnaryMethod | StreamMethod;

/** Encoders of unary request parameters into a version's wire shape. */
export type ParamEncoders = { [M in UnaryMethod]: (params: UnaryMethods[M]['params']) => unknown };
/** Encoders of streaming request parameters into a version's wire shape. */
export type StreamParamEncoders = { [M in StreamMethod]: (params: StreamMethods[M]) => unknown };

/** The encoders whose wire shape is the same in every version: cancel by id, the extended card. */
export const SAME_IN_EVERY_VERSION = {
  cancelTask: (p: UnaryMethods['cancelTask']['params']) => ({ id: p.id, ...opt('metadata', p.metadata) }),
  getExtendedAgentCard: () => ({}),
} satisfies Partial<ParamEncoders>;

/** Streaming encoders that are the same in every version: subscribe by task id. */
export const SAME_STREAM_IN_EVERY_VERSION = { subscribeToTask: (p: StreamMethods['subscribeToTask']) => ({ id: p.id }) } satisfies Partial<StreamParamEncoders>;

/**
 * Send parameters in a version's wire shape: the version's `message`, the configuration fields every
 * version shares (`acceptedOutputModes`, `historyLength`) plus the version's own (`fields`), metadata.
 */
export function encodeSendParams(p: ResolvedSendParams, message: unknown, fields: (c: SendMessageConfiguration) => Record<string, unknown>): Record<string, unknown> {
  const c = p.configuration;
  const configuration = c === undefined ? undefined : { ...opt('acceptedOutputModes', c.acceptedOutputModes), ...opt('historyLength', c.historyLength), ...fields(c) };
  return { message, ...opt('configuration', configuration), ...opt('metadata', p.metadata) };
}

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
