/**
 * The one-pass protobuf → ProtoJSON reader writes exactly what protobuf-es writes
 * (`toJson(desc, fromBinary(desc, bytes))`), on random messages of every response (and request)
 * type of both A2A gRPC services: every scalar type, enums, nested messages, lists, maps, oneofs,
 * Struct / Value / ListValue metadata, Timestamps with any precision.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fromBinary, fromJson, toBinary, toJson, type DescMessage } from '@bufbuild/protobuf';
import { V1_SERVICE as V1Service } from '../../../src/protocol/grpc/schema/descriptors.js';
import { message, types } from '../../helpers/proto-json-arbitraries.js';
import { protoJsonReader } from '../../../src/protocol/grpc/proto-json-reader.js';

describe.each([...types.values()].map((d) => [d.typeName, d] as const))('%s', (_name, desc) => {
  it('reads random messages exactly as toJson(fromBinary(...))', () => {
    const read = protoJsonReader(desc);
    fc.assert(
      fc.property(message(desc, 0), (value) => {
        const bytes = toBinary(desc, fromJson(desc, value));
        expect(read(bytes)).toEqual(toJson(desc, fromBinary(desc, bytes)));
      }),
      { numRuns: 60 },
    );
  });
});

it('a field sent again replaces a scalar and the other member of its oneof, as protobuf-es does', () => {
  const desc = V1Service.methods.find((m) => m.name === 'SendStreamingMessage')?.output as DescMessage;
  const a = toBinary(desc, fromJson(desc, { task: { id: 'a', status: { state: 'TASK_STATE_WORKING' } } }));
  const b = toBinary(desc, fromJson(desc, { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'x' }] } }));
  const both = new Uint8Array([...a, ...b]);
  expect(protoJsonReader(desc)(both)).toEqual(toJson(desc, fromBinary(desc, both)));
});
