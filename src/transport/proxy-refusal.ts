/**
 * A proxy answered something other than `200` to a CONNECT request, or `407` to a forwarded one:
 * the request never reached the agent. Turned into kind `connection`, reason `proxy`, by the error
 * normaliser. `proxy` names the proxy without its credentials.
 */
export class ProxyRefusal extends Error {
  override readonly name = 'ProxyRefusal';
  /** What error normalisers match on. */
  readonly code = 'A2A_PROXY_REFUSED';

  constructor(
    /** The proxy's HTTP status (407: its credentials were missing or refused). */
    readonly statusCode: number,
    /** The proxy's origin, without credentials. */
    readonly proxy: string,
  ) {
    super(`The proxy ${proxy} refused to connect to the agent: HTTP ${statusCode}${statusCode === 407 ? ' (proxy authentication required)' : ''}`);
  }
}

/** `url`'s origin with no user name or password: how a proxy is named in errors. */
export function proxyName(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : '(invalid proxy URL)';
}
