/**
 * Random ProtoJSON of the A2A gRPC message types (both services, every request and response type),
 * for the one-pass reader's and writer's property tests: every scalar type, enums by name, nested
 * messages, lists, maps, at most one member per oneof, Struct / Value / ListValue, Timestamps.
 */
import fc from 'fast-check';
import { ScalarType, type DescField, type DescMessage, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { V03_SERVICE as V03Service, V1_SERVICE as V1Service } from '../../src/protocol/grpc/schema/descriptors.js';

const b64 = (u: Uint8Array): string => Buffer.from(u).toString('base64');
const named = (n: number): JsonValue => (Number.isFinite(n) ? n : Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity');

function scalar(t: ScalarType): fc.Arbitrary<JsonValue> {
  switch (t) {
    case ScalarType.STRING: return fc.oneof(fc.constant(''), fc.string(), fc.string({ unit: 'grapheme' }));
    case ScalarType.BOOL: return fc.boolean();
    case ScalarType.INT32: case ScalarType.SINT32: case ScalarType.SFIXED32: return fc.oneof(fc.constant(0), fc.integer());
    case ScalarType.UINT32: case ScalarType.FIXED32: return fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
    case ScalarType.INT64: case ScalarType.SINT64: case ScalarType.SFIXED64: return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
    case ScalarType.UINT64: case ScalarType.FIXED64: return fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String);
    case ScalarType.DOUBLE: return fc.double().map(named);
    case ScalarType.FLOAT: return fc.float().map(named);
    case ScalarType.BYTES: return fc.uint8Array({ maxLength: 12 }).map(b64);
  }
}

const json: fc.Arbitrary<JsonValue> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
const MIN = Date.parse('0001-01-01T00:00:00Z');
const MAX = Date.parse('9999-12-31T23:59:59Z');
const timestamp = fc.tuple(fc.integer({ min: MIN / 1000, max: MAX / 1000 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999 }).map((m) => m * 1_000_000), fc.integer({ min: 0, max: 999_999_999 })))
  .map(([s, n]) => `${new Date(s * 1000).toISOString().slice(0, 19)}.${String(n).padStart(9, '0')}Z`);

function element(f: DescField, kind: 'scalar' | 'enum' | 'message', depth: number): fc.Arbitrary<JsonValue> {
  if (kind === 'scalar' && f.scalar !== undefined) return scalar(f.scalar);
  if (kind === 'enum' && f.enum !== undefined) return f.enum.typeName === 'google.protobuf.NullValue' ? fc.constant(null) : fc.constantFrom(...f.enum.values.map((v) => v.name));
  return message(f.message as DescMessage, depth + 1);
}

export function message(desc: DescMessage, depth: number): fc.Arbitrary<JsonValue> {
  switch (desc.typeName) {
    case 'google.protobuf.Timestamp': return timestamp;
    case 'google.protobuf.Struct': return fc.dictionary(fc.string(), json, { maxKeys: 4 });
    case 'google.protobuf.Value': return json;
    case 'google.protobuf.ListValue': return fc.array(json, { maxLength: 3 });
  }
  if (desc.typeName.startsWith('google.protobuf.')) return fc.constant({});
  if (depth > 4) return fc.constant({});
  const fields: Record<string, fc.Arbitrary<JsonValue>> = {};
  for (const f of desc.fields) {
    if (f.fieldKind === 'list') fields[f.jsonName] = fc.array(element(f, f.listKind, depth), { maxLength: 3 });
    else if (f.fieldKind === 'map') {
      const key = f.mapKey === ScalarType.STRING ? fc.string() : f.mapKey === ScalarType.BOOL ? fc.constantFrom('true', 'false') : fc.integer({ min: 0, max: 1000 }).map(String);
      fields[f.jsonName] = fc.dictionary(key, element(f, f.mapKind, depth), { maxKeys: 3 }) as fc.Arbitrary<JsonValue>;
    } else fields[f.jsonName] = element(f, f.fieldKind, depth);
  }
  return fc.record(fields, { requiredKeys: [] }).map((o) => {
    // At most one member of each oneof.
    const out: JsonObject = { ...(o as JsonObject) };
    for (const oneof of desc.oneofs) {
      const present = oneof.fields.filter((f) => f.jsonName in out);
      for (const f of present.slice(1)) delete out[f.jsonName];
    }
    return out;
  });
}

/** Every request and response type of both services, by type name. */
export const types = new Map<string, DescMessage>();
for (const service of [V1Service, V03Service]) for (const m of service.methods) for (const d of [m.input, m.output]) types.set(d.typeName, d);

