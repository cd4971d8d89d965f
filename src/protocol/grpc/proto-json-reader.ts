/**
 * Protobuf binary → ProtoJSON in one pass, for the answers of the A2A gRPC services: the same JSON
 * as `toJson(desc, fromBinary(desc, bytes))` (default options) without building the intermediate
 * message objects and walking them again. The binding decodes every stream message this way, so this
 * is the per-message cost of gRPC (the bench measured `fromBinary` + `toJson` at ~30 % of a stream's
 * client CPU); the version codecs then validate the ProtoJSON as for every binding (one validation).
 *
 * Driven by the service descriptors, compiled once per message type: scalars, enums (by name),
 * nested messages, repeated (packed or not), maps, oneofs (last member wins), proto3 implicit
 * presence (zero values omitted), and the well-known types the A2A protos use: Struct, Value,
 * ListValue, Timestamp. Any other `google.protobuf.*` message is decoded by protobuf-es itself (the
 * slow path, same JSON). Unknown fields are skipped. `test/protocol/grpc/proto-json-reader.property.test.ts`
 * checks it against protobuf-es on random messages of every A2A response type.
 */
import { fromBinary, ScalarType, toJson, type DescEnum, type DescField, type DescMessage, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { compiledOnce, readList, readStruct, readTimestamp, readValue, setKey, tagOf } from './proto-json-wkt.js';

type ReadMessage = (r: BinaryReader, end: number) => JsonValue;

const compiled = new WeakMap<DescMessage, ReadMessage>();

/** The decoder of one message type: bytes → ProtoJSON. @throws Error on malformed bytes. */
export function protoJsonReader(desc: DescMessage): (bytes: Uint8Array) => JsonValue {
  if (isSlow(desc)) return (bytes) => toJson(desc, fromBinary(desc, bytes));
  const read = readerOf(desc);
  return (bytes) => {
    const r = new BinaryReader(bytes);
    return read(r, r.len);
  };
}

function readerOf(desc: DescMessage): ReadMessage {
  return compiledOnce(compiled, desc, build);
}

const FAST_WKT = new Set(['google.protobuf.Timestamp', 'google.protobuf.Struct', 'google.protobuf.Value', 'google.protobuf.ListValue']);

/** Well-known types with a JSON form of their own that this reader does not write: protobuf-es decodes them. */
function isSlow(desc: DescMessage): boolean {
  return desc.typeName.startsWith('google.protobuf.') && !FAST_WKT.has(desc.typeName);
}

function build(desc: DescMessage): ReadMessage {
  switch (desc.typeName) {
    case 'google.protobuf.Timestamp':
      return readTimestamp;
    case 'google.protobuf.Struct':
      return readStruct;
    case 'google.protobuf.Value':
      return readValue;
    case 'google.protobuf.ListValue':
      return readList;
    default:
      return plainMessage(desc);
  }
}

/** A scalar value as ProtoJSON writes it (64-bit integers as strings, bytes as base64, non-finite doubles by name). */
function readScalar(r: BinaryReader, type: ScalarType): JsonValue {
  switch (type) {
    case ScalarType.STRING:
      return r.string();
    case ScalarType.BOOL:
      return r.bool();
    case ScalarType.INT32:
      return r.int32();
    case ScalarType.UINT32:
      return r.uint32();
    case ScalarType.SINT32:
      return r.sint32();
    case ScalarType.FIXED32:
      return r.fixed32();
    case ScalarType.SFIXED32:
      return r.sfixed32();
    case ScalarType.INT64:
      return String(r.int64());
    case ScalarType.UINT64:
      return String(r.uint64());
    case ScalarType.SINT64:
      return String(r.sint64());
    case ScalarType.FIXED64:
      return String(r.fixed64());
    case ScalarType.SFIXED64:
      return String(r.sfixed64());
    case ScalarType.DOUBLE:
      return finite(r.double());
    case ScalarType.FLOAT:
      return finite(r.float());
    case ScalarType.BYTES:
      return Buffer.from(r.bytes()).toString('base64');
  }
}

function finite(n: number): JsonValue {
  return Number.isFinite(n) ? n : Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

function enumJson(e: DescEnum, n: number): JsonValue {
  if (e.typeName === 'google.protobuf.NullValue') return null;
  return e.value[n]?.name ?? n;
}

/** What one value of a field is: a scalar, an enum or a message (a list's element, a map's value). */
export type ElementOf = { kind: 'scalar'; scalar: ScalarType } | { kind: 'enum'; enum: DescEnum } | { kind: 'message'; message: DescMessage };
type ReadOne = (r: BinaryReader) => JsonValue;

/** The reader of one value of a singular field, list element or map value: scalar, enum or message. */
function oneReader(e: ElementOf): ReadOne {
  if (e.kind === 'scalar') {
    const type = e.scalar;
    // The common types without the switch.
    if (type === ScalarType.STRING) return (r) => r.string();
    if (type === ScalarType.BOOL) return (r) => r.bool();
    if (type === ScalarType.INT32) return (r) => r.int32();
    return (r) => readScalar(r, type);
  }
  if (e.kind === 'enum') {
    const en = e.enum;
    return (r) => enumJson(en, r.int32());
  }
  const m = e.message;
  if (isSlow(m)) return (r) => toJson(m, fromBinary(m, r.bytes()));
  let read: ReadMessage | undefined;
  return (r) => {
    const len = r.uint32();
    return (read ??= readerOf(m))(r, r.pos + len);
  };
}

/** The kind of one value of field `f` (for lists and maps: of an element, of a value). */
export function elementOf(f: DescField): ElementOf {
  switch (f.fieldKind) {
    case 'scalar':
      return { kind: 'scalar', scalar: f.scalar };
    case 'enum':
      return { kind: 'enum', enum: f.enum };
    case 'message':
      return { kind: 'message', message: f.message };
    case 'list':
      return f.listKind === 'scalar' ? { kind: 'scalar', scalar: f.scalar } : f.listKind === 'enum' ? { kind: 'enum', enum: f.enum } : { kind: 'message', message: f.message };
    case 'map':
      return f.mapKind === 'scalar' ? { kind: 'scalar', scalar: f.scalar } : f.mapKind === 'enum' ? { kind: 'enum', enum: f.enum } : { kind: 'message', message: f.message };
  }
}

/** A map entry's value when the entry has none: the type's zero value (ProtoJSON writes it). */
function zeroOf(e: ElementOf): JsonValue {
  if (e.kind === 'message') return {};
  if (e.kind === 'enum') return enumJson(e.enum, 0);
  if (e.scalar === ScalarType.STRING) return '';
  if (e.scalar === ScalarType.BYTES) return '';
  if (e.scalar === ScalarType.BOOL) return false;
  const wide = [ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64].includes(e.scalar);
  return wide ? '0' : 0;
}

/** Reads one occurrence of a field (its tag already read) into the message's JSON. */
type FieldRead = (r: BinaryReader, out: JsonObject, wire: WireType) => void;

/** A JSON object (not an array, not null). */
export const isPlainObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function listRead(json: string, e: ElementOf, one: ReadOne): FieldRead {
  // Numbers, bools and enums may come packed (one length-delimited run) or one per tag.
  const packable = e.kind === 'enum' || (e.kind === 'scalar' && e.scalar !== ScalarType.STRING && e.scalar !== ScalarType.BYTES);
  return (r, out, wire) => {
    const list = (out[json] as JsonValue[] | undefined) ?? [];
    if (packable && wire === WireType.LengthDelimited) {
      const stop = r.uint32() + r.pos;
      while (r.pos < stop) list.push(one(r));
      // A packed run of nothing writes no list.
      if (list.length === 0) return;
    } else list.push(one(r));
    out[json] = list;
  };
}

function mapRead(f: DescField & { fieldKind: 'map' }, json: string, e: ElementOf, one: ReadOne): FieldRead {
  const keyType = f.mapKey;
  const keyZero = zeroOf({ kind: 'scalar', scalar: keyType });
  return (r, out) => {
    const map = (out[json] as JsonObject | undefined) ?? {};
    const stop = r.uint32() + r.pos;
    let key: JsonValue = keyZero;
    let value: JsonValue | undefined;
    while (r.pos < stop) {
      const t = tagOf(r);
      if (t >>> 3 === 1) key = readScalar(r, keyType);
      else if (t >>> 3 === 2) value = one(r);
      else r.skip(t & 7, t >>> 3);
    }
    setKey(map, String(key), value ?? zeroOf(e));
    out[json] = map;
  };
}

function fieldRead(f: DescField): FieldRead {
  const json = f.jsonName;
  const e = elementOf(f);
  const one = oneReader(e);
  if (f.fieldKind === 'list') return listRead(json, e, one);
  if (f.fieldKind === 'map') return mapRead(f, json, e, one);
  // Only one member of a oneof: the last one sent.
  const siblings = f.oneof ? f.oneof.fields.filter((x) => x !== f).map((x) => x.jsonName) : [];
  const clear = siblings.length === 0 ? undefined : (out: JsonObject): void => {
    for (const s of siblings) if (out[s] !== undefined) delete out[s];
  };
  if (e.kind === 'message') {
    return (r, out) => {
      const value = one(r);
      clear?.(out);
      const prev = out[json];
      // A message field sent twice is merged (shallowly).
      out[json] = prev !== undefined && isPlainObject(prev) && isPlainObject(value) ? { ...prev, ...value } : value;
    };
  }
  // proto3 implicit presence: the zero value is omitted (and a later zero clears an earlier value).
  if (f.oneof === undefined && f.presence === 2) {
    const zero = zeroOf(e);
    return (r, out) => {
      const value = one(r);
      if (value !== zero) out[json] = value;
      else if (out[json] !== undefined) delete out[json];
    };
  }
  return (r, out) => {
    const value = one(r);
    clear?.(out);
    out[json] = value;
  };
}

function plainMessage(desc: DescMessage): ReadMessage {
  // Readers by field number (A2A messages number their fields densely from 1), built on first use.
  let reads: Array<FieldRead | undefined> | undefined;
  return (r, end) => {
    if (reads === undefined) {
      reads = [];
      for (const f of desc.fields) reads[f.number] = fieldRead(f);
    }
    const out: JsonObject = {};
    while (r.pos < end) {
      const tag = tagOf(r);
      const no = tag >>> 3;
      const read = reads[no];
      if (read === undefined) r.skip(tag & 7, no);
      else read(r, out, tag & 7);
    }
    return out;
  };
}
