import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import type { ConnectionReason, FailurePhase } from '../errors/kinds.js';
import { ProxyRefusal } from './proxy-refusal.js';
import { CLIENT_CERT_CLOSED } from './tls-codes.js';

/**
 * TLS codes only the handshake produces (certificate checks, protocol mismatch): nothing was sent
 * yet. The server's alerts about the client certificate belong here too: on TLS 1.3 they arrive after
 * the client wrote its request, but a server whose TLS layer refused the handshake never passed that
 * request on. {@link CLIENT_CERT_CLOSED} is our name for such a refusal without an alert.
 */
const TLS_HANDSHAKE_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  CLIENT_CERT_CLOSED,
]);

/** Codes that can only come from opening a connection: nothing was sent, whatever `sent` says. */
const BEFORE_SEND: Readonly<Record<string, ConnectionReason>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EADDRNOTAVAIL: 'other',
};

/**
 * Codes usually seen while connecting that an established connection can also report (an ICMP
 * unreachable or a TCP retransmission timeout after the request went out): `before-send` only when
 * the request had provably not reached a socket.
 */
const MOSTLY_CONNECTING: Readonly<Record<string, ConnectionReason>> = {
  EHOSTUNREACH: 'other',
  ENETUNREACH: 'other',
  ETIMEDOUT: 'other',
};

/** Codes for a connection that broke; whether the request was sent depends on the phase. */
const BROKEN: Readonly<Record<string, ConnectionReason>> = {
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'closed',
  UND_ERR_CLOSED: 'closed',
  UND_ERR_DESTROYED: 'closed',
  ECONNABORTED: 'closed',
  UND_ERR_ABORTED: 'closed',
};

/**
 * Codes of a request the HTTP client refused to send (an argument it does not accept): nothing was
 * sent, and repeating it cannot help.
 */
const REFUSED_REQUEST: ReadonlySet<string> = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN']);

/** A decoder's code (zlib, brotli, zstd): the body is not valid in its content coding (a fetch decoding it says so). */
function isDecodingCode(code: string): boolean {
  return code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'Z_NEED_DICT' || code.startsWith('ERR__ERROR_') || code.startsWith('ZSTD_error_');
}

/** Every `code` string on `error` and its `cause` chain (and inside `AggregateError`s), outermost first. */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 8) return;
    seen.add(value);
    const code: unknown = Reflect.get(value, 'code');
    if (typeof code === 'string') codes.push(code);
    // undici's parser error carries llhttp's code only in some versions: its documented name stands for it.
    else if (Reflect.get(value, 'name') === 'HTTPParserError') codes.push('HPE_INVALID');
    if (value instanceof AggregateError) for (const inner of value.errors) visit(inner, depth + 1);
    visit(Reflect.get(value, 'cause'), depth + 1);
  };
  visit(error, 0);
  return codes;
}

/**
 * Turns an error from undici or a WHATWG fetch into an {@link A2AClientError} of kind `connection`
 * (or a timeout kind for undici's own timers), matching on `code` along the `cause` chain, never on
 * the message. `sent` says whether the request may have reached a socket (when unsure, pass `true`):
 * `phase: 'before-send'` is only claimed when it is provable — from `sent: false`, or from a code that
 * only connecting can produce (refused, DNS). A request the client refused to send is kind
 * `unsupported`, and so is one the runtime does not permit (Deno without `--allow-net` for the host);
 * a response that is not valid HTTP (llhttp's `HPE_*`) is `invalid-response`, and so is a
 * body its content coding does not decode (a zlib, brotli or zstd code: field `content-encoding`). An
 * `A2AClientError` is returned as is.
 */
export function normalizeTransportError(error: unknown, sent: boolean): A2AClientError {
  if (isA2AClientError(error)) return error;
  const refusal = proxyRefusalIn(error);
  if (refusal !== undefined) {
    return new A2AClientError({ kind: 'connection', message: refusal.message, cause: error, reason: 'proxy', status: refusal.statusCode, phase: 'before-send' });
  }
  const denial = runtimeDenialIn(error);
  if (denial !== undefined) {
    return new A2AClientError({ kind: 'unsupported', message: `The runtime does not allow this request: ${denial}`, cause: error, phase: 'before-send' });
  }
  const codes = errorCodes(error);
  for (const code of codes) {
    if (REFUSED_REQUEST.has(code)) {
      return new A2AClientError({ kind: 'unsupported', message: `The HTTP client refused to send the request (${code})`, cause: error, phase: 'before-send' });
    }
    if (code.startsWith('HPE_')) {
      return new A2AClientError({ kind: 'invalid-response', message: `Invalid response: not valid HTTP (${code})`, field: 'http', cause: error, phase: 'after-send' });
    }
    if (isDecodingCode(code)) {
      return new A2AClientError({ kind: 'invalid-response', message: `Invalid response: the body does not decode in its content coding (${code})`, field: 'content-encoding', cause: error, phase: 'after-send' });
    }
  }
  const afterSend: FailurePhase = sent ? 'after-send' : 'before-send';
  for (const code of codes) {
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ERR_TLS_HANDSHAKE_TIMEOUT' || (code === 'ETIMEDOUT' && !sent)) {
      return new A2AClientError({ kind: 'connect-timeout', message: 'Opening the connection timed out', cause: error, phase: 'before-send' });
    }
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new A2AClientError({ kind: 'read-timeout', message: 'Reading the response timed out', cause: error, phase: 'after-send' });
    }
  }
  // Prefer the most specific (innermost) code: fetch wraps `UND_ERR_SOCKET` around `ECONNRESET`, etc.
  for (const code of [...codes].reverse()) {
    const before = BEFORE_SEND[code];
    if (before !== undefined) return connectionError(error, before, 'before-send', code);
    const connecting = MOSTLY_CONNECTING[code];
    if (connecting !== undefined) return connectionError(error, connecting, afterSend, code);
    if (TLS_HANDSHAKE_CODES.has(code)) return connectionError(error, 'tls', 'before-send', code);
    // Other TLS failures (EPROTO, a bad record) can break an established session too.
    if (code === 'EPROTO' || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return connectionError(error, 'tls', afterSend, code);
  }
  for (const code of [...codes].reverse()) {
    const broken = BROKEN[code];
    if (broken !== undefined) return connectionError(error, broken, afterSend, code);
  }
  return connectionError(error, 'other', afterSend, codes[0]);
}

/** A {@link ProxyRefusal} on `error`'s `cause` chain. */
function proxyRefusalIn(error: unknown): ProxyRefusal | undefined {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 8; e = Reflect.get(e, 'cause'), depth++) {
    if (e instanceof ProxyRefusal) return e;
  }
  return undefined;
}

/**
 * The message of a runtime's permission refusal on `error`'s `cause` chain: Deno's `NotCapable`
 * (`PermissionDenied` before Deno 2), e.g. `Requires net access to "127.0.0.1:4000", run again with
 * the --allow-net flag`. Nothing was sent, and repeating cannot help.
 */
function runtimeDenialIn(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e.name === 'NotCapable' || e.name === 'PermissionDenied') return e.message.slice(0, 300);
  }
  return undefined;
}

function connectionError(cause: unknown, reason: ConnectionReason, phase: FailurePhase, code: string | undefined): A2AClientError {
  const suffix = code === undefined ? '' : ` (${code})`;
  return new A2AClientError({ kind: 'connection', message: `Connection failed: ${reason}${suffix}`, cause, reason, phase });
}
