import type { ProtoTable } from './proto-table.js';

/** The `google.rpc` error model A2A gRPC errors carry in `grpc-status-details-bin`: Status and the details A2A uses. */
export const GOOGLE_RPC: ProtoTable = {
  file: 'a2a-resilient/google.rpc.proto',
  package: 'google.rpc',
  imports: ['google/protobuf/any.proto', 'google/protobuf/duration.proto'],
  messages: {
    Status: ['code 1 int32', 'message 2 string', 'details 3 .google.protobuf.Any[]'],
    ErrorInfo: ['reason 1 string', 'domain 2 string', 'metadata 3 map<string,string>'],
    RetryInfo: ['retry_delay 1 .google.protobuf.Duration'],
    BadRequest: ['field_violations 1 BadRequest.FieldViolation[]'],
    'BadRequest.FieldViolation': ['field 1 string', 'description 2 string', 'reason 3 string'],
  },
};
