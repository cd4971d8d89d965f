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
import { readList, readStruct, readTimestamp, readValue, setKey, tagOf } from './proto-json-wkt.js';

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
  let read = compiled.get(desc);
  if (read === undefined) {
    // Registered before it is built: recursive types (Value ↔ Struct ↔ ListValue) find themselves.
    const lazy: { fn?: ReadMessage } = {};
    compiled.set(desc, (r, end) => (lazy.fn as ReadMessage)(r, end));
    lazy.fn = build(desc);
    read = lazy.fn;
    compiled.set(desc, read);
  }
  return read;
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

/** Reads one value of a singular or list element: scalar, enum or message. */
function readOne(r: BinaryReader, f: { kind: 'scalar'; scalar: ScalarType } | { kind: 'enum'; enum: DescEnum } | { kind: 'message'; message: DescMessage }): JsonValue {
  if (f.kind === 'scalar') return readScalar(r, f.scalar);
  if (f.kind === 'enum') return enumJson(f.enum, r.int32());
  if (isSlow(f.message)) return toJson(f.message, fromBinary(f.message, r.bytes()));
  const len = r.uint32();
  return readerOf(f.message)(r, r.pos + len);
}

type ElementOf = Parameters<typeof readOne>[1];

function elementOf(f: DescField): ElementOf {
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

interface FieldPlan {
  field: DescField;
  json: string;
  element: ElementOf;
  /** proto3 implicit presence: the zero value, which is omitted; `undefined`: always written. */
  zero: JsonValue | undefined;
  /** The oneof's other members' JSON names (one member at a time). */
  siblings: string[];
}

function plainMessage(desc: DescMessage): ReadMessage {
  // Plans by field number (A2A messages number their fields densely from 1).
  const plans: Array<FieldPlan | undefined> = [];
  for (const f of desc.fields) {
    const siblings = f.oneof ? f.oneof.fields.filter((x) => x !== f).map((x) => x.jsonName) : [];
    const implicit = (f.fieldKind === 'scalar' || f.fieldKind === 'enum') && f.oneof === undefined && f.presence === 2;
    const element = elementOf(f);
    plans[f.number] = { field: f, json: f.jsonName, element, zero: implicit ? zeroOf(element) : undefined, siblings };
  }
  const collections = desc.fields.filter((f) => f.fieldKind === 'list' || f.fieldKind === 'map').map((f) => f.jsonName);
  return (r, end) => {
    const out: JsonObject = {};
    while (r.pos < end) {
      const tag = tagOf(r);
      const no = tag >>> 3;
      const wire: WireType = tag & 7;
      const p = plans[no];
      if (p === undefined) {
        r.skip(wire, no);
        continue;
      }
      const f = p.field;
      if (f.fieldKind === 'list') {
        const list = (out[p.json] as JsonValue[] | undefined) ?? [];
        if (wire === WireType.LengthDelimited && p.element.kind !== 'message' && !(p.element.kind === 'scalar' && (p.element.scalar === ScalarType.STRING || p.element.scalar === ScalarType.BYTES))) {
          const stop = r.uint32() + r.pos;
          while (r.pos < stop) list.push(readOne(r, p.element));
        } else {
          list.push(readOne(r, p.element));
        }
        out[p.json] = list;
      } else if (f.fieldKind === 'map') {
        const map = (out[p.json] as JsonObject | undefined) ?? {};
        const stop = r.uint32() + r.pos;
        let key: JsonValue = zeroOf({ kind: 'scalar', scalar: f.mapKey });
        let value: JsonValue | undefined;
        while (r.pos < stop) {
          const t = tagOf(r);
          if (t >>> 3 === 1) key = readScalar(r, f.mapKey);
          else if (t >>> 3 === 2) value = readOne(r, p.element);
          else r.skip(t & 7, t >>> 3);
        }
        setKey(map, String(key), value ?? zeroOf(p.element));
        out[p.json] = map;
      } else {
        const value = readOne(r, p.element);
        // Only one member of a oneof: the last one sent.
        for (const s of p.siblings) if (out[s] !== undefined) delete out[s];
        const prev = out[p.json];
        // A message field sent twice is merged (shallowly); anything else: the last one wins.
        if (prev !== undefined && p.element.kind === 'message' && typeof prev === 'object' && prev !== null && !Array.isArray(prev) && typeof value === 'object' && value !== null && !Array.isArray(value)) out[p.json] = { ...prev, ...value };
        else if (p.zero !== undefined && value === p.zero) {
          if (prev !== undefined) delete out[p.json];
        } else out[p.json] = value;
      }
    }
    // A packed list of length 0 (or a map of nothing) is not written.
    for (const json of collections) {
      const v = out[json];
      if (v !== undefined && (Array.isArray(v) ? v.length === 0 : Object.keys(v as JsonObject).length === 0)) delete out[json];
    }
    return out;
  };
}
