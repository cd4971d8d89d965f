/**
 * A failed gRPC call as an error: whose status it is. grpc-js strips `grpc-status` / `grpc-message`
 * from the trailers it reports, so a status the agent sent without other trailers arrives with none;
 * only the codes grpc-js raises itself when a call breaks are taken for a broken connection.
 */
import { describe, expect, it } from 'vitest';
import { grpcStatusError } from '../../../src/protocol/grpc/grpc-status.js';

const failure = (code: number, trailers: Record<string, string> = {}) => ({ code, details: 'why', trailers, headersReceived: false });

describe('grpcStatusError', () => {
  it.each([
    [1, 'CANCELLED'],
    [2, 'UNKNOWN'],
    [8, 'RESOURCE_EXHAUSTED'],
    [13, 'INTERNAL'],
    [14, 'UNAVAILABLE'],
  ])('code %i (%s) without trailers is the connection breaking, after the request was sent', (code, name) => {
    expect(grpcStatusError(failure(code), 'sendMessage')).toMatchObject({ kind: 'connection', phase: 'after-send', grpcCode: code, grpcStatus: name });
  });

  it.each([
    [9, 'FAILED_PRECONDITION', 400],
    [5, 'NOT_FOUND', 404],
    [3, 'INVALID_ARGUMENT', 400],
    [16, 'UNAUTHENTICATED', 401],
    [12, 'UNIMPLEMENTED', 501],
  ])('code %i (%s) without trailers is the agent\'s answer (kind http, status %i)', (code, name, status) => {
    expect(grpcStatusError(failure(code), 'subscribeToTask')).toMatchObject({ kind: 'http', status, grpcCode: code, grpcStatus: name });
  });

  it('any code with trailers is the agent\'s answer, trailers kept as headers', () => {
    const error = grpcStatusError(failure(14, { 'grpc-retry-pushback-ms': '100' }), 'getTask');
    expect(error).toMatchObject({ kind: 'http', status: 503, headers: { 'grpc-retry-pushback-ms': '100' } });
  });
});
