/**
 * Redirect statuses, and the error for an RPC call answered with one. Card fetches follow redirects
 * (client/card-redirects.ts); RPC calls never do: replaying a POST to another URL could run the
 * request twice (a 307/308 after the agent acted) or hand the caller's credentials to another host.
 */
import { A2AClientError, isA2AClientError } from './a2a-client-error.js';
import { displayUrl } from './display-url.js';

/** The redirect statuses: followed by card fetches, refused on RPC calls. 300 and 304 are not among them. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** True for 301, 302, 303, 307 and 308. */
export function isRedirectStatus(status: number | undefined): boolean {
  return status !== undefined && REDIRECT_STATUSES.has(status);
}

/**
 * An RPC call's kind-`http` error for a redirect, saying the agent's interface URL moved and why it
 * is not followed; `location` is where it points (resolved against `requestUrl`), shown without
 * credentials, query or fragment, and so is the `location` in `headers`. Any other error as it is.
 * Never throws.
 */
export function rpcRedirectError(error: unknown, requestUrl: string): unknown {
  if (!isA2AClientError(error) || error.kind !== 'http' || !isRedirectStatus(error.status) || error.location !== undefined) return error;
  const raw = error.headers?.['location']?.trim();
  const location = raw && URL.canParse(raw, requestUrl) ? displayUrl(new URL(raw, requestUrl).href) : undefined;
  const headers = error.headers && { ...error.headers, ...(raw === undefined ? {} : { location: location ?? '(invalid URL)' }) };
  const moved = location === undefined ? 'moved (no valid Location)' : `moved to ${location}`;
  return new A2AClientError({
    ...error.toInit(),
    message: `HTTP ${error.status}: the agent's interface URL ${moved}; RPC redirects are not followed (replaying a POST to another URL could run the request twice or send credentials elsewhere): update the agent card or the URL the client uses`,
    ...(location === undefined ? {} : { location }),
    headers,
    retryable: false,
  });
}
