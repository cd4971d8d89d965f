/**
 * The one-pass ProtoJSON → protobuf writer gives exactly protobuf-es's answer
 * (`toBinary(desc, fromJson(desc, json))`): the same bytes for random messages of every request and
 * response type of both A2A gRPC services, and for hostile JSON (wrong types, unknown keys, proto
 * field names, nulls, two members of a oneof, numbers as strings) the same bytes or the same error.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromJson, toBinary, type DescMessage, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { V1_SERVICE as V1Service } from '../../../src/protocol/grpc/schema/descriptors.js';
import { protoJsonWriter } from '../../../src/protocol/grpc/proto-json-writer.js';
import { message, types } from '../../helpers/proto-json-arbitraries.js';

/** protobuf-es's answer: bytes, or the error message. */
function reference(desc: DescMessage, json: JsonValue): Uint8Array | string {
  try {
    return toBinary(desc, fromJson(desc, json));
  } catch (error) {
    return (error as Error).message;
  }
}

function ours(desc: DescMessage, json: JsonValue): Uint8Array | string {
  try {
    return protoJsonWriter(desc)(json);
  } catch (error) {
    return (error as Error).message;
  }
}

/** Every object node of a JSON tree (the root included). */
function objects(v: JsonValue, out: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(v)) for (const x of v) objects(x, out);
  else if (typeof v === 'object' && v !== null) {
    out.push(v);
    for (const x of Object.values(v)) objects(x as JsonValue, out);
  }
  return out;
}

/** Field names of every A2A message type (JSON and proto spellings), or a random key: edits land on nested objects too. */
const names = [...new Set([...types.values()].flatMap((d) => d.fields.flatMap((f) => [f.jsonName, f.name])))];
const key: fc.Arbitrary<string> = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });

const hostileValue: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
  fc.constantFrom<JsonValue>(null, 0, -0, '0', '12', '-1', 1.5, 'NaN', 'Infinity', '', 'dGV4dA==', 'dGV4dA', true, [], {}, [null], { '': null }, 'ROLE_USER', 'TASK_STATE_WORKING', 2 ** 40, '18446744073709551616'),
);

describe.each([...types.values()].map((d) => [d.typeName, d] as const))('%s', (_name, desc) => {
  it('writes random messages byte for byte as toBinary(fromJson(...))', () => {
    const write = protoJsonWriter(desc);
    fc.assert(
      fc.property(message(desc, 0), (value) => {
        expect(write(value)).toEqual(toBinary(desc, fromJson(desc, value)));
      }),
      { numRuns: 60 },
    );
  });

  it('answers hostile JSON as protobuf-es does: the same bytes or the same error', () => {
    fc.assert(
      fc.property(message(desc, 0), fc.array(fc.tuple(fc.nat(), key, hostileValue), { minLength: 1, maxLength: 3 }), (generated, edits) => {
        // Copies: fast-check hands out shared instances (its constants), which the edits must not tie into cycles.
        const value = structuredClone(generated);
        const nodes = objects(value);
        for (const [at, key, v] of edits) {
          const node = nodes[at % nodes.length];
          if (node !== undefined) node[key] = structuredClone(v);
        }
        expect(ours(desc, value)).toEqual(reference(desc, value));
      }),
      { numRuns: 150 },
    );
  });
});

describe('shapes the version codecs write', () => {
  const desc = V1Service.methods.find((m) => m.name === 'SendMessage')?.input as DescMessage;
  const write = protoJsonWriter(desc);

  it('a SendMessageRequest with text, data and raw parts, metadata and configuration', () => {
    const json: JsonValue = {
      tenant: 't-1',
      message: {
        messageId: 'm-1',
        contextId: 'c-1',
        role: 'ROLE_USER',
        parts: [{ text: 'hello' }, { data: { a: [1, 'x', null, { b: false }] } }, { raw: 'aGVsbG8=', mediaType: 'text/plain', filename: 'h.txt' }],
        metadata: { trace: 'x', n: 2.5 },
        referenceTaskIds: ['t-0'],
      },
      configuration: { acceptedOutputModes: ['text/plain'], historyLength: 0, returnImmediately: false },
      metadata: {},
    };
    expect(write(json)).toEqual(toBinary(desc, fromJson(desc, json)));
  });

  it('enums by number, 64-bit integers as numbers and proto field names fall back to protobuf-es (same bytes)', () => {
    const json: JsonValue = { message: { message_id: 'm', role: 1, parts: [{ text: 'x' }] } };
    expect(write(json)).toEqual(toBinary(desc, fromJson(desc, json)));
  });

  it('a value of the wrong type fails with protobuf-es\'s error, naming the field', () => {
    expect(() => write({ message: { messageId: 5 } })).toThrow(/messageId|message_id/);
    expect(() => write({ nope: 1 })).toThrow(/nope/);
  });
});
