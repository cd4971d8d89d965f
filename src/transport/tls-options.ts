import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { CLIENT_CERT_CLOSED } from './tls-codes.js';

/** A PEM text or its bytes. */
export type PemInput = string | Buffer;

/**
 * TLS settings for connections to the agent (card fetches and calls; through a proxy tunnel too).
 * Passed to Node's `tls.connect` through undici's connector.
 */
export interface TlsOptions {
  /** CA certificates to trust instead of Node's bundled roots (a private CA). */
  ca?: PemInput | PemInput[];
  /** The client certificate chain (PEM), for agents that require mutual TLS. */
  cert?: PemInput | PemInput[];
  /** The client certificate's private key (PEM). */
  key?: PemInput | PemInput[];
  /** Decrypts an encrypted `key`. */
  passphrase?: string;
  /** The name sent as SNI and checked against the agent's certificate instead of the URL's host. */
  servername?: string;
  /**
   * `false` accepts any server certificate: for tests only; it turns off the check that you are
   * talking to the agent at all.
   * @default true
   */
  rejectUnauthorized?: boolean;
}

/** The fields of {@link TlsOptions} that undici's `buildConnector` passes on to `tls.connect`. */
export function connectorTls(tls: TlsOptions | undefined): TlsOptions {
  if (tls === undefined) return {};
  const out: TlsOptions = {};
  if (tls.ca !== undefined) out.ca = tls.ca;
  if (tls.cert !== undefined) out.cert = tls.cert;
  if (tls.key !== undefined) out.key = tls.key;
  if (tls.passphrase !== undefined) out.passphrase = tls.passphrase;
  if (tls.servername !== undefined) out.servername = tls.servername;
  if (tls.rejectUnauthorized !== undefined) out.rejectUnauthorized = tls.rejectUnauthorized;
  return out;
}


/**
 * Keeps a TLS 1.3 refusal of the client certificate visible. On TLS 1.3 the client's handshake ends
 * before the server has checked its certificate, so the refusal arrives after the request was
 * written: as an alert (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`, `…_UNKNOWN_CA`, …), which undici
 * then reports as a bare "other side closed" `UND_ERR_SOCKET`, or as a silent close. This watches a
 * socket handed to undici and sets the alert (or, with `clientCert`, a {@link CLIENT_CERT_CLOSED}
 * error for a silent close before the first session ticket) as `cause` of that socket error, so the
 * error normaliser can see it. Never changes what undici does with the socket.
 */
export function watchTlsRefusal(socket: Socket, clientCert: boolean): void {
  if (!(socket instanceof TLSSocket)) return;
  // Read now: once the socket is closed it no longer knows.
  const tls13 = socket.getProtocol() === 'TLSv1.3';
  let alert: Error | undefined;
  let heard = false;
  socket.once('session', () => {
    heard = true;
  });
  socket.prependListener('error', (error: Error) => {
    const code: unknown = Reflect.get(error, 'code');
    if (alert === undefined && typeof code === 'string' && code.startsWith('ERR_SSL_')) {
      alert = error;
      return;
    }
    if (code !== 'UND_ERR_SOCKET' || error.cause !== undefined) return;
    if (alert !== undefined) error.cause = alert;
    else if (clientCert && !heard && tls13 && socket.bytesRead === 0) {
      error.cause = Object.assign(new Error('The agent closed the TLS connection right after the handshake: client certificate refused?'), { code: CLIENT_CERT_CLOSED });
    }
  });
}

export { CLIENT_CERT_CLOSED };
