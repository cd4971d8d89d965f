/**
 * Protobuf binary ↔ ProtoJSON for the A2A gRPC services, from the descriptors built from the
 * interface tables in `schema/`. The binding turns each request's ProtoJSON (what the version codecs
 * already write) into bytes and each answer's bytes back into ProtoJSON (what they already validate):
 * one model, one validation for every binding. Symmetric, so a gRPC server (a mock agent) can use the
 * same codecs the other way round. Loads `@bufbuild/protobuf` (an optional peer): import it only
 * through `loadGrpcRuntime`.
 */
import { createRegistry, fromBinary, fromJson, toBinary, toJson, type DescMessage, type DescService, type JsonValue, type Message, type Registry } from '@bufbuild/protobuf';
import type { GenMessage } from '@bufbuild/protobuf/codegenv2';
import type { Any } from '@bufbuild/protobuf/wkt';
import { RPC_FILE, STATUS } from './schema/descriptors.js';

/** `google.rpc.Status` as its descriptor describes it (built at run time, so typed here once). */
type Status = Message<'google.rpc.Status'> & { code: number; message: string; details: Any[] };
const StatusSchema = STATUS as GenMessage<Status>;
import { protoJsonReader } from './proto-json-reader.js';
import { protoJsonWriter } from './proto-json-writer.js';

/** Encoding and decoding of one RPC's messages. */
export interface GrpcMethodCodec {
  /** The method's name in the service, e.g. `SendMessage`. */
  readonly name: string;
  /** The HTTP/2 path, `/<package>.<Service>/<Method>`. */
  readonly path: string;
  /** The server answers with a stream of messages. */
  readonly serverStreaming: boolean;
  /** ProtoJSON → request bytes. @throws Error naming the field when the JSON does not fit the message. */
  encodeRequest(json: JsonValue): Uint8Array;
  /** Request bytes → ProtoJSON (for servers). @throws Error on malformed bytes. */
  decodeRequest(bytes: Uint8Array): JsonValue;
  /** ProtoJSON → response bytes (for servers). @throws Error naming the field. */
  encodeResponse(json: JsonValue): Uint8Array;
  /** Response bytes → ProtoJSON (default values omitted, enums by name). @throws Error on malformed bytes. */
  decodeResponse(bytes: Uint8Array): JsonValue;
}

/** Every method of one A2A gRPC service. */
export interface GrpcServiceCodec {
  /** Fully-qualified service name, e.g. `lf.a2a.v1.A2AService`. */
  readonly typeName: string;
  /** By method name (`SendMessage`, `TaskSubscription`, …). */
  readonly methods: ReadonlyMap<string, GrpcMethodCodec>;
}

/** The registry that resolves `google.protobuf.Any` in error details (ErrorInfo, RetryInfo, BadRequest). */
const detailsRegistry: Registry = createRegistry(RPC_FILE);

function codecOf(desc: DescMessage): { encode: (json: JsonValue) => Uint8Array; decode: (bytes: Uint8Array) => JsonValue } {
  return {
    // One pass each way: the same bytes as `toBinary(desc, fromJson(desc, json))`, the same JSON as
    // `toJson(desc, fromBinary(desc, bytes))`.
    encode: protoJsonWriter(desc),
    decode: protoJsonReader(desc),
  };
}

/** The codecs of every method of a service descriptor. */
export function serviceCodec(service: DescService): GrpcServiceCodec {
  const methods = new Map<string, GrpcMethodCodec>();
  for (const m of service.methods) {
    const input = codecOf(m.input);
    const output = codecOf(m.output);
    methods.set(m.name, {
      name: m.name,
      path: `/${service.typeName}/${m.name}`,
      serverStreaming: m.methodKind === 'server_streaming',
      encodeRequest: input.encode,
      decodeRequest: input.decode,
      encodeResponse: output.encode,
      decodeResponse: output.decode,
    });
  }
  return { typeName: service.typeName, methods };
}

/**
 * A `grpc-status-details-bin` value (a binary `google.rpc.Status`) as ProtoJSON: `{ code, message,
 * details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, … }] }`. Details of types
 * this registry does not know are dropped rather than failing the whole status.
 * @returns `undefined` when the bytes are not a Status.
 */
export function decodeStatusDetails(bytes: Uint8Array): JsonValue | undefined {
  try {
    const status = fromBinary(StatusSchema, bytes);
    status.details = status.details.filter((any) => detailsRegistry.getMessage(any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1)) !== undefined);
    return toJson(StatusSchema, status, { registry: detailsRegistry });
  } catch {
    // A peer's malformed details say nothing we could use; the status code and message still stand.
    return undefined;
  }
}

/**
 * A binary `google.rpc.Status` from its ProtoJSON (for servers and tests that send rich errors).
 * @throws Error naming the field when the JSON does not fit.
 */
export function encodeStatusDetails(json: JsonValue): Uint8Array {
  return toBinary(StatusSchema, fromJson(StatusSchema, json, { registry: detailsRegistry }));
}
