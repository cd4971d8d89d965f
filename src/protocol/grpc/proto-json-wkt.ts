/**
 * The well-known types the A2A services carry (Timestamp, Struct, Value, ListValue) read from protobuf
 * straight into their ProtoJSON form and (but Timestamp) written back, and the two wire helpers the
 * message reader shares with them (see `proto-json-reader.ts`, `proto-json-writer.ts`).
 */
import type { DescMessage, JsonObject, JsonValue } from '@bufbuild/protobuf';
import { WireType, type BinaryReader, type BinaryWriter } from '@bufbuild/protobuf/wire';

/**
 * The compiled reader or writer of `desc`, built once per message type and cached in `cache`. It is
 * registered (as a forwarder) before it is built, so recursive types (Value ↔ Struct ↔ ListValue)
 * find themselves while being built.
 */
export function compiledOnce<F extends (...args: never[]) => unknown>(cache: WeakMap<DescMessage, F>, desc: DescMessage, build: (desc: DescMessage) => F): F {
  let fn = cache.get(desc);
  if (fn === undefined) {
    const lazy: { fn?: F } = {};
    const forward = (...args: Parameters<F>): unknown => (lazy.fn as F)(...args);
    cache.set(desc, forward as unknown as F);
    fn = build(desc);
    lazy.fn = fn;
    cache.set(desc, fn);
  }
  return fn;
}

/** Sets a key that came from the wire (`__proto__` included, as an own property). */
export function setKey(o: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

/** Reads a field tag: `[field number, wire type]` packed as `number * 8 + type`. @throws Error for an illegal tag. */
export function tagOf(r: BinaryReader): number {
  const tag = r.uint32();
  if (tag >>> 3 === 0 || (tag & 7) > 5) throw new Error(`illegal tag: field no ${tag >>> 3} wire type ${tag & 7}`);
  return tag;
}

/** `google.protobuf.Timestamp` as its RFC 3339 string. @throws Error out of range. */
export function readTimestamp(r: BinaryReader, end: number): JsonValue {
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const tag = tagOf(r);
    const no = tag >>> 3;
    const wire: WireType = tag & 7;
    if (no === 1) seconds = Number(r.int64());
    else if (no === 2) nanos = r.int32();
    else r.skip(wire, no);
  }
  const ms = seconds * 1000;
  if (ms < -62135596800000 || ms > 253402300799000 || nanos < 0 || nanos > 999_999_999) throw new Error('cannot encode google.protobuf.Timestamp to JSON: out of range');
  let z = 'Z';
  if (nanos > 0) {
    const digits = (nanos + 1_000_000_000).toString().substring(1);
    z = digits.substring(3) === '000000' ? `.${digits.substring(0, 3)}Z` : digits.substring(6) === '000' ? `.${digits.substring(0, 6)}Z` : `.${digits}Z`;
  }
  return new Date(ms).toISOString().replace('.000Z', z);
}

/** `google.protobuf.Struct` as a JSON object. */
export function readStruct(r: BinaryReader, end: number): JsonValue {
  const out: JsonObject = {};
  while (r.pos < end) {
    const [no, wire] = r.tag();
    if (no !== 1) {
      r.skip(wire, no);
      continue;
    }
    const stop = r.uint32() + r.pos;
    let key = '';
    let value: JsonValue = null;
    while (r.pos < stop) {
      const [k, w] = r.tag();
      if (k === 1) key = r.string();
      else if (k === 2) value = readValue(r, r.uint32() + r.pos);
      else r.skip(w, k);
    }
    setKey(out, key, value);
  }
  return out;
}

/** `google.protobuf.ListValue` as a JSON array. */
export function readList(r: BinaryReader, end: number): JsonValue {
  const out: JsonValue[] = [];
  while (r.pos < end) {
    const [no, wire] = r.tag();
    if (no === 1) out.push(readValue(r, r.uint32() + r.pos));
    else r.skip(wire, no);
  }
  return out;
}

/** `google.protobuf.Value` as the JSON value it holds. @throws Error when unset or not finite. */
export function readValue(r: BinaryReader, end: number): JsonValue {
  let value: JsonValue | undefined;
  while (r.pos < end) {
    const [no, wire] = r.tag();
    switch (no) {
      case 1:
        r.int32();
        value = null;
        break;
      case 2: {
        const n = r.double();
        if (!Number.isFinite(n)) throw new Error('cannot encode google.protobuf.Value to JSON: a number must be finite');
        value = n;
        break;
      }
      case 3:
        value = r.string();
        break;
      case 4:
        value = r.bool();
        break;
      case 5:
        value = readStruct(r, r.uint32() + r.pos);
        break;
      case 6:
        value = readList(r, r.uint32() + r.pos);
        break;
      default:
        r.skip(wire, no);
    }
  }
  if (value === undefined) throw new Error('cannot encode google.protobuf.Value to JSON: value kind is unset');
  return value;
}

/** `google.protobuf.Struct`: `map<string, Value> fields = 1`. */
export function writeStruct(w: BinaryWriter, json: JsonObject): void {
  for (const key of Object.keys(json)) {
    w.tag(1, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(key);
    w.tag(2, WireType.LengthDelimited).fork();
    writeValue(w, json[key] as JsonValue);
    w.join().join();
  }
}

/** `google.protobuf.Value`'s fields for one JSON value (null, number, string, bool, struct, list). */
export function writeValue(w: BinaryWriter, v: JsonValue): void {
  if (v === null) w.tag(1, WireType.Varint).int32(0);
  else if (typeof v === 'number') w.tag(2, WireType.Bit64).double(v);
  else if (typeof v === 'string') w.tag(3, WireType.LengthDelimited).string(v);
  else if (typeof v === 'boolean') w.tag(4, WireType.Varint).bool(v);
  else if (Array.isArray(v)) {
    w.tag(6, WireType.LengthDelimited).fork();
    writeList(w, v);
    w.join();
  } else {
    w.tag(5, WireType.LengthDelimited).fork();
    writeStruct(w, v);
    w.join();
  }
}

/** `google.protobuf.ListValue`: `repeated Value values = 1`. */
export function writeList(w: BinaryWriter, list: JsonValue[]): void {
  for (const v of list) {
    w.tag(1, WireType.LengthDelimited).fork();
    writeValue(w, v);
    w.join();
  }
}
