import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { parseProblem } from '../errors/parse-problem.js';
import { asAuthRefusal, type AuthChallenge } from '../errors/auth-refusal.js';
import { redactFailure } from '../errors/redact.js';
import { opt } from '../protocol/opt.js';
import { parseAgentCard } from '../protocol/card.js';
import { JSON_ACCEPT } from '../protocol/exchange.js';
import type { AgentCard } from '../protocol/model.js';
import type { EventSink } from '../resilience/events.js';
import type { RetryOptions } from '../resilience/options.js';
import type { AgentStateStore } from '../resilience/agent-state-store.js';
import { createResilience } from '../resilience/pipeline.js';
import { agentStatesOf } from '../resilience/shared-state.js';
import type { EngineResponse, HttpEngine } from '../transport/engine.js';
import { DEFAULT_LIMITS, DEFAULT_TIMEOUTS, withSettings, type Limits, type Timeouts } from '../transport/settings.js';
import { readErrorBody } from '../transport/read-error-body.js';
import { startCallTrace, traceTarget } from '../tracing/start-call-trace.js';
import { withChallengeRepeat, type WithHeaders } from '../protocol/auth-challenge.js';
import { verifyAgentCard } from './card-signature.js';
import { getFollowingRedirects, trustedOriginsOf } from './card-redirects.js';
import { cardUrls, displayUrl } from './card-urls.js';
import { resolveHeaders } from '../protocol/request-headers.js';
import type { CallOptions, ClientOptions, HeadersOption } from './options.js';
import type { CallScope } from '../transport/call-scope.js';
import { callDeadlineName, deadlineNameOf, namedDeadline } from '../transport/deadline-name.js';

/** The method name card fetches carry on errors and events. */
export const CARD_METHOD = 'getAgentCard';

/** A fetched card with what its HTTP caching headers allow. */
export interface CachedCard {
  card: AgentCard;
  /** The URL requested, before redirects: the cache key, asked again by a refresh (which follows redirects anew). */
  url: string;
  /** The URL that served it, after redirects: the base a relative interface URL of the card resolves against. */
  finalUrl: string;
  etag?: string;
  /** `performance.now()` ms until which the card may be used without asking again. */
  freshUntil: number;
}

/** How one discovery (or refresh) runs: the client's settings with the call's over them. */
export interface FetchCardOptions {
  engine: HttpEngine;
  /**
   * The client's headers (a function is called once per attempt, under the deadline, and once more to
   * answer an authentication challenge).
   */
  headers: HeadersOption | undefined;
  /** The call's extra headers. */
  callHeaders?: Record<string, string> | undefined;
  /** Resolved timeouts; `totalMs` is the one deadline over every URL, attempt and wait. */
  timeouts: Timeouts;
  limits: Limits;
  signal?: AbortSignal | undefined;
  /** The client's retry settings, and the call's override. */
  retry?: false | Partial<RetryOptions> | undefined;
  callRetry?: false | Partial<RetryOptions> | undefined;
  onEvent?: EventSink | undefined;
  /** Where the card origin's retry budget lives (the client's `sharedState`). @default the process-wide store */
  store?: AgentStateStore | undefined;
  /** Checks a fetched card before it is used (signature verification) and resolves with the card to use (the card as signed); throws to refuse it. */
  verify?: ((card: AgentCard) => Promise<AgentCard>) | undefined;
  /** Origins that get the caller's headers when a card fetch is redirected there (`redirects.trustedOrigins`). */
  trustedOrigins?: ReadonlySet<string> | undefined;
}

/**
 * {@link fetchAgentCard} with a client's settings and a call's over them (headers, timeouts, signal,
 * retry, the shared store), for `connect` and `refreshCard`.
 * @throws as {@link fetchAgentCard}; A2AClientError kind `unsupported` for a `sharedState` not made
 * by `redisStateStore` or a `redirects.trustedOrigins` entry that is not an http(s) URL.
 */
export function fetchCardFor(baseUrl: string, engine: HttpEngine, options: ClientOptions, call: CallOptions, cached?: CachedCard): Promise<CachedCard> {
  const signature = options.cardSignature;
  return fetchAgentCard(
    baseUrl,
    {
      engine,
      headers: options.headers,
      callHeaders: call.headers,
      timeouts: namedDeadline(withSettings('timeouts', DEFAULT_TIMEOUTS, options.timeouts, call.timeouts), callDeadlineName(options.timeouts, call.timeouts)),
      limits: withSettings('limits', DEFAULT_LIMITS, options.limits),
      signal: call.signal,
      retry: options.retry,
      callRetry: call.retry,
      onEvent: options.onEvent,
      store: options.sharedState ? agentStatesOf(options.sharedState) : undefined,
      verify: signature === undefined ? undefined : (card) => verifyAgentCard(card, signature),
      trustedOrigins: trustedOriginsOf(options.redirects?.trustedOrigins),
    },
    cached,
  );
}

/** `max-age` of a Cache-Control header in ms (`no-cache`/`no-store` → 0). */
export function freshnessMs(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (directives.includes('no-store') || directives.includes('no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  const seconds = maxAge ? Number(maxAge.slice('max-age='.length)) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

/**
 * Fetches and validates an agent card from `baseUrl` (trying {@link CARD_PATHS} in order), or
 * revalidates a cached one with `If-None-Match`. Bounded like any call: one deadline
 * (`timeouts.totalMs`) and the caller's signal over every URL tried, every attempt, every wait and
 * the headers function. A card fetch is an idempotent read: refused connections, timeouts, resets,
 * 5xx and 429 are retried (honouring Retry-After within the deadline) under the card origin's retry
 * budget, and each attempt is kept in `attempts`. It does not go through the agent's circuit
 * breaker: the card may be served by another host than the agent's endpoint, and a client that
 * cannot discover the agent has no calls to protect yet. Redirects are followed as
 * {@link getFollowingRedirects} says (the caller's headers only to the requested and trusted
 * origins), every hop inside the attempt: the deadline and signal bound the chain, a retry starts it
 * over, and the card is verified as served by the last hop.
 * @throws A2AClientError with `agent` set to the agent URL (without credentials or query) and the
 * message naming it: kind `card` (not found, refused with an HTTP status — `status`, `retryAfterMs`
 * kept — bad JSON, failed validation naming the field, refused by `options.verify`, a redirect not
 * followed — `redirects` naming the chain, also set on any failure after a redirect), `deadline-exceeded`, `aborted`,
 * `budget-exhausted`, or the transport kinds (`connection`, timeouts) once retries give up.
 */
export async function fetchAgentCard(baseUrl: string, options: FetchCardOptions, cached?: CachedCard): Promise<CachedCard> {
  if (cached && performance.now() < cached.freshUntil) return cached;
  const urls = cached ? [cached.url] : cardUrls(baseUrl);
  const agent = displayUrl(baseUrl);
  const deadline = performance.now() + options.timeouts.totalMs;
  const pipeline = createResilience(new URL(urls[0] ?? baseUrl).origin, agent, {
    retry: options.retry,
    circuitBreaker: false,
    onEvent: options.onEvent,
    store: options.store,
    card: cached?.card,
  });
  const trace = startCallTrace(traceTarget(agent, urls[0] ?? baseUrl), CARD_METHOD);
  try {
    const found = await pipeline.execute(
      { method: CARD_METHOD, idempotent: true, deadline, deadlineName: deadlineNameOf(options.timeouts), signal: options.signal, retry: options.callRetry, trace },
      async ({ scope, attempt }) => {
        const make = async (challenge: AuthChallenge | undefined): Promise<CardTry> => {
          const headers = await resolveHeaders(options.headers, options.callHeaders, { card: cached?.card, attempt, method: CARD_METHOD, ...opt('challenge', challenge) });
          return { headers, traced: trace ? trace.inject({}) : {} };
        };
        const run = async ({ headers, traced }: CardTry): Promise<CachedCard> => {
          try {
            return await fetchUrls(urls, headers, traced, options, scope, cached);
          } catch (error) {
            // The attempt's failure holds none of the header values it sent; a refusal names the scheme asked for.
            throw redactFailure(asAuthRefusal(error), headers, urls[0]);
          }
        };
        // A headers function may answer an authentication challenge: the fetch is repeated once with its new headers.
        return typeof options.headers === 'function'
          ? withChallengeRepeat(make, run, trace && ((c) => trace.challenge(c.status, c.challenges[0]?.scheme)))
          : run(await make(undefined));
      },
    );
    trace?.end();
    return found;
  } catch (error) {
    const named = namingAgent(error, agent);
    trace?.end(named);
    throw named;
  } finally {
    pipeline.dispose();
  }
}

/** One try of a card fetch: the caller's headers (redacted from its failures) and the trace context headers. */
interface CardTry extends WithHeaders {
  traced: Record<string, string>;
}

/** Each card URL in turn until one answers (a 404 / 410 moves on to the next). */
async function fetchUrls(
  urls: readonly string[],
  caller: Record<string, string>,
  traced: Record<string, string>,
  options: FetchCardOptions,
  scope: CallScope,
  cached: CachedCard | undefined,
): Promise<CachedCard> {
  let notFound: A2AClientError | undefined;
  // A2A-Version 1.0: a server that also speaks v0.3 then serves its v1.0 card (which lists its v0.3
  // interfaces too) instead of a v0.3/v1.0 hybrid — the form its signature covers. v0.3 servers ignore it.
  const own: Record<string, string> = { accept: JSON_ACCEPT, 'a2a-version': '1.0' };
  const etag: Record<string, string> = cached?.etag ? { 'if-none-match': cached.etag } : {};
  const hops = { engine: options.engine, scope, timeouts: options.timeouts, limits: options.limits, trusted: options.trustedOrigins ?? new Set<string>() };
  for (const url of urls) {
    const get = { url, headers: { ...own, ...caller, ...traced, ...etag }, crossOrigin: { ...own, ...traced, ...etag } };
    const { response, url: finalUrl, redirects } = await getFollowingRedirects(get, hops);
    try {
      const found = await readCard(response, url, finalUrl, options, cached);
      if (found !== undefined) return found;
      notFound = new A2AClientError({
        kind: 'card',
        message: `no agent card at ${displayUrl(finalUrl)} (HTTP ${response.status})${via(redirects)}`,
        status: response.status,
        field: 'url',
        ...(redirects.length > 1 ? { redirects } : {}),
      });
    } catch (error) {
      throw withChain(error, redirects);
    }
  }
  throw notFound ?? new A2AClientError({ kind: 'card', message: 'no agent card URL to try', field: 'url' });
}

/** A failure after redirects, with the chain that led there (`redirects`, and in the message). */
function withChain(error: unknown, redirects: readonly string[]): unknown {
  if (redirects.length < 2 || !isA2AClientError(error) || error.redirects !== undefined) return error;
  return error.with({ redirects, message: `${error.message}${via(redirects)}` });
}

/** How a message names the redirects that led to a response ('' when there were none). */
function via(redirects: readonly string[]): string {
  return redirects.length > 1 ? ` (redirected: ${redirects.join(' → ')})` : '';
}

/**
 * The card of a response that was not a redirect, `undefined` for a 404 / 410 (the next URL is
 * tried). `url` is the URL requested, `finalUrl` the one that answered.
 */
async function readCard(response: EngineResponse, url: string, finalUrl: string, options: FetchCardOptions, cached: CachedCard | undefined): Promise<CachedCard | undefined> {
  const fresh = freshnessMs(response.headers['cache-control']);
  // Drain (a few KiB at most) rather than `close()` an unread body: destroying an unread undici body
  // emits an 'error' nobody listens to (an uncaught UND_ERR_ABORTED), and draining keeps the socket.
  if (response.status === 304 && cached) {
    await readErrorBody(response);
    return { ...cached, finalUrl, freshUntil: performance.now() + fresh };
  }
  if (response.status === 404 || response.status === 410) {
    await readErrorBody(response);
    return undefined;
  }
  if (response.status < 200 || response.status > 299) {
    // Kind `http` so the retry loop reads the status and the server's hints; reported as `card`.
    const text = await readErrorBody(response);
    throw new A2AClientError({
      kind: 'http',
      message: `agent card request to ${displayUrl(finalUrl)} failed with HTTP ${response.status}`,
      status: response.status,
      headers: response.headers,
      bodyText: text.slice(0, 4096),
      problem: parseProblem(jsonOrUndefined(text)),
      phase: 'after-send',
    });
  }
  const served = parseCardText(await response.text(), finalUrl);
  // A verified card is the card exactly as signed (see verifyAgentCard).
  const card = options.verify ? await options.verify(served) : served;
  const etag = response.headers.etag;
  return { card, url, finalUrl, ...(etag ? { etag } : {}), freshUntil: performance.now() + fresh };
}

/**
 * The final discovery error: an HTTP failure becomes kind `card` (the status, headers, hints and
 * attempts kept, the HTTP error as `cause`); every error names the agent URL in its message.
 */
function namingAgent(error: unknown, agent: string): unknown {
  if (!isA2AClientError(error)) return error;
  const message = error.message.includes(agent) ? error.message : `${error.message} (agent card of ${agent})`;
  if (error.kind !== 'http') return error.with({ agent, message });
  return new A2AClientError({ ...error.toInit(), kind: 'card', message, agent, field: 'url', cause: error });
}

function jsonOrUndefined(text: string): unknown {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not a problem+json body after all: the status alone describes the failure.
    return undefined;
  }
}

function parseCardText(text: string, url: string): AgentCard {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new A2AClientError({
      kind: 'card',
      message: `the agent card at ${displayUrl(url)} is not valid JSON`,
      field: '$',
      bodyText: text.slice(0, 1024),
      cause: error,
    });
  }
  try {
    return parseAgentCard(json);
  } catch (error) {
    if (isA2AClientError(error)) throw error;
    throw new A2AClientError({ kind: 'card', message: `the agent card at ${displayUrl(url)} is invalid`, cause: error });
  }
}
