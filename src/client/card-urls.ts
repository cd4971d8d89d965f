/** The URLs of agent-card discovery, and how errors may show them. */
import { A2AClientError } from '../errors/a2a-client-error.js';
import { displayUrl } from '../errors/display-url.js';

export { displayUrl };

/** Where an agent card is looked for, in order: the v0.3+ name, then the pre-0.3 one. */
export const CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

/**
 * The card URLs to try for `baseUrl`: the URL itself when it names a `.json` file, else each of
 * {@link CARD_PATHS} below its path (a query is kept, a fragment dropped).
 * @throws A2AClientError kind `card` (field `url`) for a URL that does not parse; kind `unsupported`
 * for one with credentials ({@link rejectCredentials}).
 */
export function cardUrls(baseUrl: string): string[] {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch (error) {
    throw new A2AClientError({ kind: 'card', message: 'the agent base URL is not a valid URL', field: 'url', cause: error });
  }
  rejectCredentials(base);
  // A URL that already names a card is used as is.
  if (base.pathname.endsWith('.json')) return [base.href];
  // The card paths go below the base path; a query (e.g. an API key) is kept, a fragment dropped.
  const prefix = base.pathname.replace(/\/+$/, '');
  base.hash = '';
  return CARD_PATHS.map((path) => {
    base.pathname = prefix + path;
    return base.href;
  });
}

/**
 * Refuses a URL with `user:password@`: neither engine sends them (undici drops them, fetch refuses
 * the URL quoting it whole), so they would only leak into errors.
 * @throws A2AClientError kind `unsupported` (field `url`), showing the URL without them.
 */
export function rejectCredentials(url: URL): void {
  if (url.username === '' && url.password === '') return;
  throw new A2AClientError({
    kind: 'unsupported',
    message: `the agent URL ${displayUrl(url.href)} carries credentials (user:password@), which are never sent: pass them in \`headers\` (e.g. authorization)`,
    field: 'url',
    phase: 'before-send',
  });
}


/**
 * An interface URL of a card as the client calls it: an absolute one as is; a relative one (the spec
 * asks for absolute URLs, some servers send a path) resolved against `cardUrl`, the URL that served
 * the card after redirects.
 * @throws A2AClientError kind `card` (field `url`) for a relative URL without a card URL to resolve
 * it against (a card given to the constructor), or one that does not resolve.
 */
export function interfaceUrl(url: string, cardUrl: string | undefined): string {
  if (URL.canParse(url)) return url;
  if (cardUrl !== undefined && URL.canParse(url, cardUrl)) return new URL(url, cardUrl).href;
  throw new A2AClientError({
    kind: 'card',
    message: `the agent card's interface URL is not an absolute URL${cardUrl === undefined ? ' (a relative one resolves only against the URL a card was fetched from)' : ''}`,
    field: 'url',
  });
}
