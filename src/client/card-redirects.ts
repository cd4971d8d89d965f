/**
 * Following the redirects of an agent-card fetch: up to {@link MAX_CARD_REDIRECTS} hops, always GET,
 * the caller's headers only where they may go, and every refusal a `card` error naming the chain.
 *
 * Why not undici's `interceptors.redirect` (lib/interceptor/redirect.js, lib/handler/redirect-handler.js):
 * cross-origin it strips only `authorization`, `cookie` and `proxy-authorization` (an `x-api-key` set
 * through `headers` would follow the redirect), it does not refuse an https→http downgrade, it is a
 * dispatcher interceptor the fetch engine cannot use (both engines must behave alike), and its
 * failures (a loop is a plain `InvalidArgumentError`, the history is not in it) cannot name the chain.
 * Here each hop is one ordinary `engine.send` under the call's scope, so the deadline, the caller's
 * signal and the per-request timers bound every hop, and the attempt's retries cover the whole chain.
 */
import { A2AClientError } from '../errors/a2a-client-error.js';
import { isRedirectStatus } from '../errors/redirect.js';
import type { CallScope } from '../transport/call-scope.js';
import type { EngineResponse, HttpEngine } from '../transport/engine.js';
import type { Limits, Timeouts } from '../transport/settings.js';
import { displayUrl } from './card-urls.js';

/** Most redirects one card fetch follows; the next one fails with kind `card`. */
export const MAX_CARD_REDIRECTS = 5;

/** One card GET, with the headers of a hop that may carry the caller's credentials and of one that may not. */
export interface CardGet {
  url: string;
  /** Everything: the SDK's headers and the caller's (sent to the requested origin and trusted origins). */
  headers: Record<string, string>;
  /** The SDK's headers only (accept, version, trace context, `if-none-match`): sent anywhere else. */
  crossOrigin: Record<string, string>;
}

/** What the hops are sent with. */
export interface HopContext {
  engine: HttpEngine;
  scope: CallScope;
  timeouts: Timeouts;
  limits: Limits;
  /** Origins (as `URL.origin`) that get the caller's headers like the requested one ({@link trustedOriginsOf}). */
  trusted: ReadonlySet<string>;
}

/** The response that was not a redirect, where it came from, and the chain that led there. */
export interface Followed {
  response: EngineResponse;
  /** The URL that answered (the requested one when there was no redirect). */
  url: string;
  /** Each URL requested, as errors show URLs; one entry when there was no redirect. */
  redirects: string[];
}

/**
 * GETs `get.url`, following redirects. Each redirect's body is released unread (closed). The
 * caller's headers go to the requested origin and to trusted origins only; after a hop to any other
 * origin they are dropped for the rest of the chain (a later hop back does not restore them). A 301,
 * 302 or 303 stays a GET, as do 307 and 308 (the method is always GET). A relative `Location`
 * resolves against the URL that sent it; a fragment is not sent.
 * @throws A2AClientError kind `card` (field `location`, `redirects` naming the chain, `status` of the
 * last redirect) for a missing or invalid `Location`, a scheme other than http(s), credentials in the
 * `Location`, https→http, a loop, or more than {@link MAX_CARD_REDIRECTS} redirects; whatever
 * `engine.send` throws for a hop.
 */
export async function getFollowingRedirects(get: CardGet, ctx: HopContext): Promise<Followed> {
  let current = withoutFragment(new URL(get.url));
  const origin = current.origin;
  const chain: URL[] = [current];
  let credentials = true;
  for (;;) {
    const response = await ctx.engine.send({
      method: 'GET',
      url: current.href,
      headers: credentials ? get.headers : get.crossOrigin,
      scope: ctx.scope,
      timeouts: ctx.timeouts,
      limits: ctx.limits,
    });
    if (!isRedirectStatus(response.status)) return { response, url: current.href, redirects: chain.map((u) => shownUrl(u)) };
    const location = response.headers.location?.trim();
    // Nothing of a redirect's body is used: release it (a small one has usually ended already and its connection is kept).
    await response.close();
    const status = response.status;
    const refuse = (problem: string, next?: URL): A2AClientError => redirectRefused(problem, next ? [...chain, next] : chain, status);
    if (location === undefined || location === '') throw refuse(`HTTP ${status} without a Location header`);
    if (!URL.canParse(location, current)) throw refuse(`HTTP ${status} with a Location that is not a URL`);
    const next = withoutFragment(new URL(location, current));
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw refuse(`a redirect to a ${next.protocol} URL (only http and https are followed)`, next);
    // Never sent by either engine (fetch refuses such a URL, quoting it): refused rather than silently dropped.
    if (next.username !== '' || next.password !== '') throw refuse('a Location with credentials (user:password@), which are never sent', next);
    if (current.protocol === 'https:' && next.protocol === 'http:') throw refuse('a redirect from https to http (the card would travel unprotected)', next);
    if (chain.some((u) => u.href === next.href)) throw refuse('a redirect loop', next);
    if (chain.length > MAX_CARD_REDIRECTS) throw refuse(`more than ${MAX_CARD_REDIRECTS} redirects`, next);
    if (next.origin !== origin && !ctx.trusted.has(next.origin)) credentials = false;
    chain.push(next);
    current = next;
  }
}

/**
 * The origins of `redirects.trustedOrigins`.
 * @throws A2AClientError kind `unsupported` (field `redirects.trustedOrigins`) for an entry that is not
 * an http(s) URL.
 */
export function trustedOriginsOf(origins: readonly string[] | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const entry of origins ?? []) {
    const url = typeof entry === 'string' && URL.canParse(entry) ? new URL(entry) : undefined;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new A2AClientError({
        kind: 'unsupported',
        message: 'redirects.trustedOrigins must hold http(s) origins such as "https://cards.example.com"',
        field: 'redirects.trustedOrigins',
        phase: 'before-send',
      });
    }
    out.add(url.origin);
  }
  return out;
}

/** The `card` error for a redirect that is not followed, naming the whole chain. */
function redirectRefused(problem: string, chain: readonly URL[], status: number): A2AClientError {
  const redirects = chain.map((u) => shownUrl(u));
  return new A2AClientError({
    kind: 'card',
    message: `agent card redirect not followed: ${problem}; chain: ${redirects.join(' → ')}`,
    field: 'location',
    status,
    redirects,
    phase: 'after-send',
  });
}

/** A URL of the chain as errors show it: an http(s) one without credentials, query or fragment; another scheme by its name only. */
function shownUrl(url: URL): string {
  return url.protocol === 'http:' || url.protocol === 'https:' ? displayUrl(url.href) : url.protocol;
}

function withoutFragment(url: URL): URL {
  url.hash = '';
  return url;
}
