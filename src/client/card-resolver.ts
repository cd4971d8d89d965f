import { A2AClientError, isA2AClientError } from '../errors/a2a-client-error.js';
import { parseAgentCard } from '../protocol/card.js';
import type { AgentCard } from '../protocol/model.js';
import type { HttpEngine, Limits, Timeouts } from '../transport/engine.js';
import { readErrorBody } from '../transport/read-error-body.js';

/** Where an agent card is looked for, in order: the v0.3+ name, then the pre-0.3 one. */
export const CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

/** A fetched card with what its HTTP caching headers allow. */
export interface CachedCard {
  card: AgentCard;
  /** The URL it was served from. */
  url: string;
  etag?: string;
  /** `performance.now()` ms until which the card may be used without asking again. */
  freshUntil: number;
}

interface FetchCardOptions {
  engine: HttpEngine;
  headers: Record<string, string>;
  timeouts: Timeouts;
  limits: Limits;
  signal?: AbortSignal;
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
 * revalidates a cached one with `If-None-Match`.
 * @throws A2AClientError kind `card` (not found, bad JSON, failed validation — naming the field), or
 * the transport kinds (`connection`, timeouts, `aborted`).
 */
export async function fetchAgentCard(
  baseUrl: string,
  options: FetchCardOptions,
  cached?: CachedCard,
): Promise<CachedCard> {
  if (cached && performance.now() < cached.freshUntil) return cached;
  const urls = cached ? [cached.url] : cardUrls(baseUrl);
  let notFound: A2AClientError | undefined;
  for (const url of urls) {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    const deadline = performance.now() + options.timeouts.totalMs;
    const response = await options.engine.send({
      method: 'GET',
      url,
      headers,
      signal: options.signal,
      timeouts: options.timeouts,
      deadline,
      limits: options.limits,
    });
    const fresh = freshnessMs(response.headers['cache-control']);
    // Drain (a few KiB at most) rather than `close()` an unread body: destroying an unread undici body
    // emits an 'error' nobody listens to (an uncaught UND_ERR_ABORTED), and draining keeps the socket.
    if (response.status === 304 && cached) {
      await readErrorBody(response);
      return { ...cached, freshUntil: performance.now() + fresh };
    }
    if (response.status === 404 || response.status === 410) {
      await readErrorBody(response);
      notFound = new A2AClientError({
        kind: 'card',
        message: `no agent card at ${url} (HTTP ${response.status})`,
        status: response.status,
        field: 'url',
      });
      continue;
    }
    const text = await response.text();
    if (response.status < 200 || response.status > 299) {
      throw new A2AClientError({
        kind: 'card',
        message: `agent card request to ${url} failed with HTTP ${response.status}`,
        status: response.status,
        headers: response.headers,
        bodyText: text.slice(0, 4096),
      });
    }
    const card = parseCardText(text, url);
    const etag = response.headers.etag;
    return { card, url, ...(etag ? { etag } : {}), freshUntil: performance.now() + fresh };
  }
  throw notFound ?? new A2AClientError({ kind: 'card', message: `no agent card under ${baseUrl}`, field: 'url' });
}

function cardUrls(baseUrl: string): string[] {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch (error) {
    throw new A2AClientError({ kind: 'card', message: 'the agent base URL is not a valid URL', field: 'url', cause: error });
  }
  // A URL that already names a card is used as is.
  if (base.pathname.endsWith('.json')) return [base.href];
  const prefix = base.href.replace(/\/+$/, '');
  return CARD_PATHS.map((path) => prefix + path);
}

function parseCardText(text: string, url: string): AgentCard {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new A2AClientError({
      kind: 'card',
      message: `the agent card at ${url} is not valid JSON`,
      field: '$',
      bodyText: text.slice(0, 1024),
      cause: error,
    });
  }
  try {
    return parseAgentCard(json);
  } catch (error) {
    if (isA2AClientError(error)) throw error;
    throw new A2AClientError({ kind: 'card', message: `the agent card at ${url} is invalid`, cause: error });
  }
}
