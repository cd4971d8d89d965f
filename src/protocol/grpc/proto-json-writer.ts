/**
 * ProtoJSON → protobuf binary in one pass, for the requests of the A2A gRPC services: the same bytes
 * as `toBinary(desc, fromJson(desc, json))` without building the intermediate message objects. Every
 * call encodes its request this way, and protobuf-es's reflective `fromJson` was the largest share of a
 * small unary call's client CPU that the official client (ts-proto, generated code) does not pay.
 *
 * The writer takes the shapes the version codecs write: fields by their JSON names, scalars of their
 * JSON type, enums by name or number, nested messages, lists, string-keyed maps, at most one member of
 * each oneof, and Struct / Value / ListValue / Timestamp. Anything else (a proto field name, a number
 * as a string, a `null` oneof member, a non-string map key, a value of the wrong type, an unknown key)
 * is not guessed at: the whole message is encoded by protobuf-es instead, which accepts what ProtoJSON
 * allows and throws its own error for the rest. So the result, or the error, is always protobuf-es's.
 * `test/protocol/grpc/proto-json-writer.property.test.ts` checks the bytes against protobuf-es.
 */
import { fromJson, ScalarType, toBinary, type DescEnum, type DescField, type DescMessage, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { base64Decode, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { elementOf, isPlainObject, type ElementOf } from './proto-json-reader.js';
import { compiledOnce, writeList, writeStruct, writeValue } from './proto-json-wkt.js';

type WriteMessage = (w: BinaryWriter, json: JsonObject) => void;
type WriteValue = (w: BinaryWriter, value: JsonValue) => void;

/** Thrown inside the fast path for a shape it does not take; the message is encoded by protobuf-es. */
class Unusual extends Error {}
const unusual = (): never => {
  throw new Unusual('not a shape the one-pass writer takes');
};

const compiled = new WeakMap<DescMessage, WriteMessage>();

/** The encoder of one message type: ProtoJSON → bytes. @throws Error (protobuf-es's) when the JSON does not fit the message. */
export function protoJsonWriter(desc: DescMessage): (json: JsonValue) => Uint8Array {
  const slow = (json: JsonValue): Uint8Array => toBinary(desc, fromJson(desc, json));
  if (isSlow(desc)) return slow;
  const write = writerOf(desc);
  return (json) => {
    if (!isPlainObject(json)) return slow(json);
    const w = new BinaryWriter();
    try {
      write(w, json);
    } catch {
      // A shape the fast path does not take ({@link Unusual}), or a value it could not encode: protobuf-es's to accept or refuse.
      return slow(json);
    }
    return w.finish();
  };
}

const FAST_WKT = new Set(['google.protobuf.Struct', 'google.protobuf.Value', 'google.protobuf.ListValue']);

/** Well-known types with a JSON form of their own that this writer does not read: protobuf-es encodes them. */
function isSlow(desc: DescMessage): boolean {
  return desc.typeName.startsWith('google.protobuf.') && !FAST_WKT.has(desc.typeName);
}

function writerOf(desc: DescMessage): WriteMessage {
  return compiledOnce(compiled, desc, build);
}

function build(desc: DescMessage): WriteMessage {
  switch (desc.typeName) {
    case 'google.protobuf.Struct':
      return (w, json) => writeStruct(w, json);
    case 'google.protobuf.Value':
    case 'google.protobuf.ListValue':
      // Their JSON is not an object (or any value): written by the field writer, never as a message.
      return unusual;
    default:
      return plainMessage(desc);
  }
}

const FLOAT_MAX = 3.4028234663852886e38;
const INT64 = /^-?(0|[1-9][0-9]*)$/;
const UINT64 = /^(0|[1-9][0-9]*)$/;

/** The wire type and writer of a scalar; each refuses (as {@link Unusual}) a value ProtoJSON would have to convert. */
function scalarWriter(type: ScalarType): [WireType, (w: BinaryWriter, v: JsonValue) => void] {
  const int = (min: number, max: number) => (v: JsonValue): number => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : unusual());
  const int32 = int(-0x80000000, 0x7fffffff);
  const uint32 = int(0, 0xffffffff);
  const str64 = (re: RegExp) => (v: JsonValue): string => (typeof v === 'string' && re.test(v) ? v : unusual());
  const signed64 = str64(INT64);
  const unsigned64 = str64(UINT64);
  switch (type) {
    case ScalarType.STRING:
      return [WireType.LengthDelimited, (w, v) => w.string(typeof v === 'string' ? v : unusual())];
    case ScalarType.BOOL:
      return [WireType.Varint, (w, v) => w.bool(typeof v === 'boolean' ? v : unusual())];
    case ScalarType.INT32:
      return [WireType.Varint, (w, v) => w.int32(int32(v))];
    case ScalarType.SINT32:
      return [WireType.Varint, (w, v) => w.sint32(int32(v))];
    case ScalarType.SFIXED32:
      return [WireType.Bit32, (w, v) => w.sfixed32(int32(v))];
    case ScalarType.UINT32:
      return [WireType.Varint, (w, v) => w.uint32(uint32(v))];
    case ScalarType.FIXED32:
      return [WireType.Bit32, (w, v) => w.fixed32(uint32(v))];
    case ScalarType.INT64:
      return [WireType.Varint, (w, v) => w.int64(signed64(v))];
    case ScalarType.SINT64:
      return [WireType.Varint, (w, v) => w.sint64(signed64(v))];
    case ScalarType.SFIXED64:
      return [WireType.Bit64, (w, v) => w.sfixed64(signed64(v))];
    case ScalarType.UINT64:
      return [WireType.Varint, (w, v) => w.uint64(unsigned64(v))];
    case ScalarType.FIXED64:
      return [WireType.Bit64, (w, v) => w.fixed64(unsigned64(v))];
    case ScalarType.DOUBLE:
      return [WireType.Bit64, (w, v) => w.double(typeof v === 'number' ? v : unusual())];
    case ScalarType.FLOAT:
      return [WireType.Bit32, (w, v) => w.float(typeof v === 'number' && Math.abs(v) <= FLOAT_MAX ? v : unusual())];
    case ScalarType.BYTES:
      return [WireType.LengthDelimited, (w, v) => w.bytes(base64Decode(typeof v === 'string' ? v : unusual()))];
  }
}

function enumNumber(e: DescEnum, v: JsonValue): number {
  if (typeof v === 'string') return e.values.find((x) => x.name === v)?.number ?? unusual();
  return typeof v === 'number' && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff ? v : unusual();
}

/** The writer of one value of a singular field or list element, tag included. */
function elementWriter(no: number, f: ElementOf): WriteValue {
  if (f.kind === 'scalar') {
    const [wire, write] = scalarWriter(f.scalar);
    return (w, v) => write(w.tag(no, wire), v);
  }
  if (f.kind === 'enum') {
    if (f.enum.typeName === 'google.protobuf.NullValue') return (w, v) => (v === null ? w.tag(no, WireType.Varint).int32(0) : unusual());
    return (w, v) => w.tag(no, WireType.Varint).int32(enumNumber(f.enum, v));
  }
  const m = f.message;
  if (m.typeName === 'google.protobuf.Value') return (w, v) => (w.tag(no, WireType.LengthDelimited).fork(), writeValue(w, v), w.join());
  if (m.typeName === 'google.protobuf.ListValue') return (w, v) => (w.tag(no, WireType.LengthDelimited).fork(), writeList(w, Array.isArray(v) ? v : unusual()), w.join());
  if (isSlow(m)) return (w, v) => w.tag(no, WireType.LengthDelimited).bytes(toBinary(m, fromJson(m, v)));
  return (w, v) => {
    const write = writerOf(m);
    w.tag(no, WireType.LengthDelimited).fork();
    write(w, isPlainObject(v) ? v : unusual());
    w.join();
  };
}

/** A value proto3 implicit presence leaves out: the type's zero. */
function isZero(e: ElementOf, v: JsonValue): boolean {
  if (e.kind === 'enum') return v === 0 || (typeof v === 'string' && e.enum.values.find((x) => x.number === 0)?.name === v);
  if (e.kind === 'message') return false;
  switch (e.scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return v === '';
    case ScalarType.BOOL:
      return v === false;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return v === '0' || v === 0;
    default:
      return v === 0;
  }
}

/** Writes one field's JSON value (never `undefined`; `null` already handled). */
function fieldWriter(f: DescField): WriteValue {
  const element = elementOf(f);
  if (f.fieldKind === 'list') {
    const one = elementWriter(f.number, element);
    const packed = f.packed && element.kind !== 'message';
    const bare = packed ? (element.kind === 'enum' ? (w: BinaryWriter, v: JsonValue) => w.int32(enumNumber(element.enum, v)) : scalarWriter(element.scalar)[1]) : undefined;
    return (w, v) => {
      if (!Array.isArray(v)) unusual();
      const list = v as JsonValue[];
      if (list.length === 0) return;
      if (bare === undefined) {
        for (const x of list) one(w, x === null && element.kind !== 'message' ? unusual() : x);
        return;
      }
      w.tag(f.number, WireType.LengthDelimited).fork();
      for (const x of list) bare(w, x);
      w.join();
    };
  }
  if (f.fieldKind === 'map') {
    if (f.mapKey !== ScalarType.STRING) return unusual;
    const value = elementWriter(2, element);
    const nullable = element.kind === 'message' && element.message.typeName === 'google.protobuf.Value';
    return (w, v) => {
      if (!isPlainObject(v)) unusual();
      const map = v as JsonObject;
      for (const key of Object.keys(map)) {
        const x = map[key] as JsonValue;
        if (x === null && !nullable) unusual();
        w.tag(f.number, WireType.LengthDelimited).fork();
        w.tag(1, WireType.LengthDelimited).string(key);
        value(w, x);
        w.join();
      }
    };
  }
  const one = elementWriter(f.number, element);
  // proto3 implicit presence (no oneof, not `optional`): the zero value is not written.
  if ((f.fieldKind === 'scalar' || f.fieldKind === 'enum') && f.oneof === undefined && f.presence === 2) return (w, v) => (isZero(element, v) ? undefined : one(w, v));
  return one;
}

interface FieldPlan {
  json: string;
  write: WriteValue;
  /** `null` means the field's own value (Value, NullValue), not "unset". */
  nullIsValue: boolean;
  oneof: object | undefined;
}

function plainMessage(desc: DescMessage): WriteMessage {
  const sorted = desc.fields.concat().sort((a, b) => a.number - b.number);
  let plans: FieldPlan[] | undefined;
  const byJson = new Set(desc.fields.map((f) => f.jsonName));
  return (w, json) => {
    plans ??= sorted.map((f) => ({
      json: f.jsonName,
      write: fieldWriter(f),
      nullIsValue: f.fieldKind === 'message' ? f.message.typeName === 'google.protobuf.Value' : f.fieldKind === 'enum' && f.enum.typeName === 'google.protobuf.NullValue',
      oneof: f.oneof,
    }));
    for (const key of Object.keys(json)) if (!byJson.has(key)) unusual();
    let oneofs: Set<object> | undefined;
    for (const p of plans) {
      const v = json[p.json];
      if (v === undefined) continue;
      if (p.oneof !== undefined) {
        // A second member, or a null one (protobuf-es counts it): its rules, not ours.
        if (v === null || oneofs?.has(p.oneof) === true) unusual();
        (oneofs ??= new Set()).add(p.oneof);
      }
      if (v === null && !p.nullIsValue) continue;
      p.write(w, v);
    }
  };
}
