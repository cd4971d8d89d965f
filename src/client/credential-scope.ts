/**
 * Where the caller's headers may go: the rule that keeps `options.headers`, the headers function's
 * output and `call.headers` (credentials, as far as the SDK can tell) away from hosts the caller
 * never chose. Card redirects follow it hop by hop (`card-redirects.ts`); every RPC request of a
 * client follows it once, for the negotiated interface, decided here when the client is built.
 */

import { trustedOriginsOf } from './card-redirects.js';
import type { ClientOptions } from './options.js';

/** What decides whether the negotiated interface gets the caller's headers. */
export interface CredentialScope {
  /**
   * The URL the caller named (`connect`'s URL); `undefined` for a client built from a card object,
   * which the caller handed over itself: its interface counts as named.
   */
  named: string | undefined;
  /** `redirects.trustedOrigins`, as origins. */
  trusted: ReadonlySet<string>;
  /** The card was verified with `cardSignature` (its signer vouches for the interfaces it names). */
  signed: boolean;
}

/**
 * True when requests to `origin` (the interface's: `http(s)://…`, or `grpc[s]://host:port`) may carry
 * the caller's headers: the caller built the client from a card it holds, or the origin is the one
 * the caller named, or a trusted one, or the card was signed. A gRPC origin compares as the http(s)
 * origin of the same host and port (`grpcs` as `https`); a gRPC interface on the named host counts
 * as named whatever its port (gRPC needs an HTTP/2 listener of its own, so an agent serves it beside
 * its card, on another port), unless it would carry them in plaintext where the caller named https.
 */
export function credentialsAllowed(origin: string, scope: CredentialScope): boolean {
  if (scope.named === undefined || scope.signed) return true;
  const target = comparable(origin);
  const named = comparable(scope.named);
  if (target === undefined) return false;
  if (target === named || scope.trusted.has(target)) return true;
  if (!/^grpcs?:/i.test(origin) || named === undefined) return false;
  const [t, n] = [new URL(target), new URL(named)];
  return t.hostname === n.hostname && (t.protocol === 'https:' || n.protocol === 'http:');
}

/** The http(s) origin `url` compares as; undefined when it has none. */
function comparable(url: string): string | undefined {
  const http = url.replace(/^grpcs:/i, 'https:').replace(/^grpc:/i, 'http:');
  if (!URL.canParse(http)) return undefined;
  const { protocol, origin } = new URL(http);
  return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
}

/**
 * Whether a client's calls to `origin` may carry the caller's headers, from its options and the URL
 * `connect` was given (`undefined` for a client built from a card object). A discovered card was
 * verified when `cardSignature` is set (`connect` refuses it otherwise).
 * @throws A2AClientError kind `unsupported` for a `redirects.trustedOrigins` entry that is not an http(s) URL.
 */
export function credentialsFor(origin: string, options: ClientOptions, named: string | undefined): boolean {
  return credentialsAllowed(origin, {
    named,
    trusted: trustedOriginsOf(options.redirects?.trustedOrigins),
    signed: named !== undefined && options.cardSignature !== undefined,
  });
}
