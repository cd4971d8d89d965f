import { describe, expect, it } from 'vitest';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import { errorCodes, normalizeTransportError } from '../../src/transport/normalize-error.js';
import { ProxyRefusal } from '../../src/transport/proxy-refusal.js';
import { CLIENT_CERT_CLOSED } from '../../src/transport/tls-options.js';

const coded = (code: string, cause?: unknown) => Object.assign(new Error('whatever text'), { code }, cause === undefined ? {} : { cause });

describe('normalizeTransportError', () => {
  it('reports a runtime permission refusal (Deno: NotCapable, wrapped by fetch) as unsupported, before send, with its text', () => {
    const notCapable = Object.assign(new Error('Requires net access to "127.0.0.1:4000", run again with the --allow-net flag'), { name: 'NotCapable' });
    const error = normalizeTransportError(new TypeError('fetch failed', { cause: notCapable }), true);
    expect(error).toMatchObject({ kind: 'unsupported', phase: 'before-send', retryable: false });
    expect(error.message).toBe('The runtime does not allow this request: Requires net access to "127.0.0.1:4000", run again with the --allow-net flag');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it.each([
    ['ECONNREFUSED', 'refused', 'before-send'],
    ['ENOTFOUND', 'dns', 'before-send'],
    ['EAI_AGAIN', 'dns', 'before-send'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls', 'before-send'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls', 'before-send'],
    ['ECONNRESET', 'reset', 'after-send'],
    ['UND_ERR_SOCKET', 'closed', 'after-send'],
    ['EWHATEVER', 'other', 'after-send'],
  ])('maps %s to connection/%s (%s when sent)', (code, reason, phase) => {
    const error = normalizeTransportError(coded(code), true);
    expect(error.kind).toBe('connection');
    expect(error.reason).toBe(reason);
    expect(error.phase).toBe(phase);
  });

  it.each([
    ['EHOSTUNREACH', 'connection', 'other'],
    ['ENETUNREACH', 'connection', 'other'],
    ['ETIMEDOUT', 'connection', 'other'],
    ['EPROTO', 'connection', 'tls'],
    ['ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', 'connection', 'tls'],
  ])('claims before-send for %s only when the request had not reached a socket', (code, kind, reason) => {
    // An established connection can report these too (ICMP unreachable, TCP retransmission timeout,
    // a broken TLS session) after the request went out: a send must not be repeated on them.
    expect(normalizeTransportError(coded(code), true)).toMatchObject({ kind, reason, phase: 'after-send' });
    const early = normalizeTransportError(coded(code), false);
    expect(early.phase).toBe('before-send');
    expect(early.kind).toBe(code === 'ETIMEDOUT' ? 'connect-timeout' : 'connection');
  });

  it.each(['Z_DATA_ERROR', 'Z_BUF_ERROR', 'ERR__ERROR_FORMAT_CL_SPACE', 'ZSTD_error_prefix_unknown'])(
    'a decoder error (%s, from a fetch decoding the body, wrapped in its TypeError) is invalid-response, field content-encoding',
    (code) => {
      const error = normalizeTransportError(Object.assign(new TypeError('terminated'), { cause: coded(code) }), true);
      expect(error).toMatchObject({ kind: 'invalid-response', field: 'content-encoding', phase: 'after-send' });
    },
  );

  it.each(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'ERR_INVALID_CHAR'])(
    'a request the HTTP client refused (%s) is unsupported and before-send, whatever `sent` says',
    (code) => {
      expect(normalizeTransportError(new TypeError('fetch failed', { cause: coded(code) }), true)).toMatchObject({ kind: 'unsupported', phase: 'before-send' });
    },
  );

  it('a response that is not valid HTTP (llhttp HPE_*) is invalid-response, after sending', () => {
    expect(normalizeTransportError(coded('HPE_INVALID_CONSTANT'), true)).toMatchObject({ kind: 'invalid-response', field: 'http', phase: 'after-send' });
  });

  it('walks fetch-style cause chains and prefers the innermost code', () => {
    const err = new TypeError('fetch failed', { cause: coded('UND_ERR_SOCKET', coded('ECONNRESET')) });
    expect(normalizeTransportError(err, true)).toMatchObject({ kind: 'connection', reason: 'reset' });
    expect(errorCodes(err)).toEqual(['UND_ERR_SOCKET', 'ECONNRESET']);
  });

  it('looks inside AggregateError (happy-eyeballs connect failures)', () => {
    const err = new TypeError('fetch failed', { cause: new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]) });
    expect(normalizeTransportError(err, false)).toMatchObject({ kind: 'connection', reason: 'refused', phase: 'before-send' });
  });

  it('never reads the message text', () => {
    expect(normalizeTransportError(new Error('ECONNREFUSED'), false).reason).toBe('other');
  });

  it('maps undici timer codes to timeout kinds, keeps the cause, and passes A2AClientError through', () => {
    const cause = coded('UND_ERR_HEADERS_TIMEOUT');
    const mapped = normalizeTransportError(cause, true);
    expect(mapped.kind).toBe('read-timeout');
    expect(mapped.cause).toBe(cause);
    expect(normalizeTransportError(coded('UND_ERR_CONNECT_TIMEOUT'), false).kind).toBe('connect-timeout');
    const own = new A2AClientError({ kind: 'aborted', message: 'x' });
    expect(normalizeTransportError(own, true)).toBe(own);
  });

  it.each([
    'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
    'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
    'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
    CLIENT_CERT_CLOSED,
  ])('a client certificate refused (%s, under the socket error undici reports) is tls before-send even after the request was written', (code) => {
    const error = normalizeTransportError(coded('UND_ERR_SOCKET', coded(code)), true);
    expect(error).toMatchObject({ kind: 'connection', reason: 'tls', phase: 'before-send' });
    expect(error.message).toContain(code);
  });

  it('a TLS handshake timeout is a connect-timeout', () => {
    expect(normalizeTransportError(coded('ERR_TLS_HANDSHAKE_TIMEOUT'), false)).toMatchObject({ kind: 'connect-timeout', phase: 'before-send' });
  });

  it('a proxy refusal anywhere on the cause chain is connection/proxy with its status, before send', () => {
    const error = normalizeTransportError(coded('UND_ERR_ABORTED', new ProxyRefusal(407, 'http://127.0.0.1:3128')), true);
    expect(error).toMatchObject({ kind: 'connection', reason: 'proxy', status: 407, phase: 'before-send' });
    expect(error.message).toContain('http://127.0.0.1:3128');
  });
});
