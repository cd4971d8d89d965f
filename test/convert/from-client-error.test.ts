import { describe, expect, it } from 'vitest';
import { isTerminalError } from '../../src/convert/agent-event.js';
import { errorEvent, responseErrorFromClientError } from '../../src/convert/from-client-error.js';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';

describe('responseErrorFromClientError', () => {
  it.each([
    ['connection', 'transport_error'],
    ['connect-timeout', 'timeout_error'],
    ['read-timeout', 'timeout_error'],
    ['idle-timeout', 'timeout_error'],
    ['deadline-exceeded', 'timeout_error'],
    ['invalid-response', 'protocol_error'],
    ['unsupported', 'protocol_error'],
    ['card', 'protocol_error'],
    ['circuit-open', 'circuit_open'],
    ['bulkhead-rejected', 'overloaded'],
  ] as const)('kind %s → type %s, code = kind, cause kept', (kind, type) => {
    const err = new A2AClientError({ kind, message: 'boom' });
    const re = responseErrorFromClientError(err);
    expect(re).toMatchObject({ type, code: kind, message: 'boom', retryable: false });
    expect(re.cause).toBe(err);
  });

  it('json-rpc: code as string, v0.3 data hints (retryable, retryAfter seconds)', () => {
    const err = new A2AClientError({ kind: 'json-rpc', message: 'Internal error', code: -32603, data: { retryable: true, retryAfter: 2 } });
    expect(responseErrorFromClientError(err)).toMatchObject({ type: 'protocol_error', code: '-32603', retryable: true, retryAfterMs: 2000 });
  });

  it('json-rpc: explicit retryable false in data wins over the error flag', () => {
    const err = new A2AClientError({ kind: 'json-rpc', message: 'x', code: -32603, retryable: true, data: { retryable: false } });
    expect(responseErrorFromClientError(err).retryable).toBe(false);
  });

  it('json-rpc v1.0: ErrorInfo.reason lands in the message, RetryInfo.retryDelay in retryAfterMs', () => {
    const err = new A2AClientError({
      kind: 'json-rpc',
      message: 'Version not supported',
      code: -32009,
      data: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org', metadata: { trace_id: 't-1' } },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' },
      ],
    });
    const re = responseErrorFromClientError(err);
    expect(re).toMatchObject({ code: '-32009', retryAfterMs: 1500, traceId: 't-1' });
    expect(re.message).toContain('VERSION_NOT_SUPPORTED');
  });

  it('http with problem+json: status code, title/detail message, is_retriable, retry_after_ms, trace_id', () => {
    const err = new A2AClientError({
      kind: 'http',
      message: 'HTTP 503',
      status: 503,
      problem: { type: 'https://errors.example/overloaded', title: 'Overloaded', detail: 'try later', is_retriable: true, retry_after_ms: 750, trace_id: 'abc' },
    });
    expect(responseErrorFromClientError(err)).toMatchObject({
      type: 'http_error',
      code: '503',
      message: 'Overloaded: try later',
      retryable: true,
      retryAfterMs: 750,
      traceId: 'abc',
    });
  });

  it("the error's own retryAfterMs (e.g. from Retry-After or the breaker) is kept", () => {
    const err = new A2AClientError({ kind: 'circuit-open', message: 'open', retryAfterMs: 1234 });
    expect(responseErrorFromClientError(err).retryAfterMs).toBe(1234);
  });

  it('malformed hints are ignored without throwing', () => {
    const err = new A2AClientError({ kind: 'json-rpc', message: 'x', code: -32000, data: [{ nope: 1 }, 'str', { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: 'soon' }] });
    expect(responseErrorFromClientError(err)).toMatchObject({ code: '-32000', message: 'x' });
    expect(responseErrorFromClientError(err).retryAfterMs).toBeUndefined();
  });
});

describe('errorEvent', () => {
  it('builds the one terminal error event', () => {
    const err = new A2AClientError({ kind: 'read-timeout', message: 'no headers in 500 ms', retryable: true });
    const ev = errorEvent(err, 'agent-a');
    expect(ev).toMatchObject({ object: 'error', done: true, partial: false, agent: 'agent-a', error: { type: 'timeout_error', code: 'read-timeout', retryable: true } });
    expect(isTerminalError(ev)).toBe(true);
    expect(ev.id).toMatch(/^error-/);
  });
});
