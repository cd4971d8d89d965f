/**
 * The code given to a TLS 1.3 connection that the agent closed right after the handshake without a
 * word (no alert, no session ticket, no byte): what a Node `https` server does with a client
 * certificate it does not trust. Only claimed when a client certificate was presented. Its own module
 * so the error normaliser names it without importing `node:tls` (the web build has no TLS options).
 */
export const CLIENT_CERT_CLOSED = 'A2A_TLS_CLIENT_CERT_CLOSED';
