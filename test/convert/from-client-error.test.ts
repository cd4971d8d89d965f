import { describe, expect, it } from 'vitest';
import { isTerminalError } from '../../src/convert/agent-event.js';
import { errorEvent, responseErrorFromClientError } from '../../src/convert/from-client-error.js';
import { A2AClientError, isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { A2AClient } from '../../src/index.js';
import { startFaultServer } from '../helpers/fault-server.js';

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

  it('json-rpc: code as string, retryAfter seconds from v0.3 data; retryable is the error\'s own (classify wrote it)', () => {
    const err = new A2AClientError({ kind: 'json-rpc', message: 'Internal error', code: -32603, retryable: true, data: { retryable: true, retryAfter: 2 } });
    expect(responseErrorFromClientError(err)).toMatchObject({ type: 'protocol_error', code: '-32603', retryable: true, retryAfterMs: 2000 });
  });

  it('retryable and ambiguous are the error\'s own: a hint does not make a refused credential retryable', () => {
    const refused = new A2AClientError({ kind: 'http', message: 'HTTP 401', status: 401, retryable: false, problem: { title: 'no', is_retriable: true } });
    expect(responseErrorFromClientError(refused).retryable).toBe(false);
    const sent = new A2AClientError({ kind: 'json-rpc', message: 'Internal error', code: -32603, retryable: true, ambiguous: true });
    expect(responseErrorFromClientError(sent)).toMatchObject({ retryable: true, ambiguous: true });
    const refusal = new A2AClientError({ kind: 'http', message: 'HTTP 503', status: 503, retryable: true });
    expect(responseErrorFromClientError(refusal)).toMatchObject({ retryable: true, ambiguous: false, source: 'path' });
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
      retryable: true,
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

describe('ResponseError code when the HTTP status is not the failure', () => {
  it.each([
    ['invalid-response', 200],
    ['connection', 200],
    ['read-timeout', 200],
    ['idle-timeout', 200],
    ['deadline-exceeded', 200],
    ['card', 200],
  ] as const)('%s after HTTP %i → code is the kind', (kind, status) => {
    expect(responseErrorFromClientError(new A2AClientError({ kind, message: 'x', status })).code).toBe(kind);
  });

  it('an error status keeps naming the failure: http 503 → "503", a card fetch answered 404 → "404"', () => {
    expect(responseErrorFromClientError(new A2AClientError({ kind: 'http', message: 'x', status: 503 })).code).toBe('503');
    expect(responseErrorFromClientError(new A2AClientError({ kind: 'card', message: 'x', status: 404 })).code).toBe('404');
  });

  it('through the client: a 200 with an unusable body (schema, HTML, bad JSON) or reset mid-body is not code "200"', async () => {
    const server = await startFaultServer();
    server.route('/garbage', (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":1,"result":{"not":"a task"}}');
    });
    server.route('/html', (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    server.route('/truncated', (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":1,"res');
    });
    const clientFor = (path: string): A2AClient =>
      new A2AClient(
        { name: `code-${path.slice(1)}`, supportedInterfaces: [{ url: `${server.url}${path}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] },
        { retry: false, circuitBreaker: false },
      );
    const garbage = clientFor('/garbage');
    const html = clientFor('/html');
    const truncated = clientFor('/truncated');
    const reset = clientFor('/reset');
    try {
      for (const client of [garbage, html, truncated]) {
        const [bad] = await client.invoke('hi');
        expect([bad?.error?.type, bad?.error?.code]).toEqual(['protocol_error', 'invalid-response']);
      }
      const [dropped] = await reset.invoke('hi');
      expect(dropped?.error?.code).not.toBe('200');
      expect(dropped?.error?.code).toBe(isA2AClientError(dropped?.error?.cause) ? dropped.error.cause.kind : 'missing cause');
    } finally {
      await Promise.all([garbage, html, truncated, reset].map((c) => c.close()));
      await server.close();
    }
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
