/**
 * What counts as a secret of a request: the values the caller put in its headers (with the forms
 * they take once quoted, encoded or decoded) and the secrets of its URL. See `redact.ts` for how they
 * are kept out of errors.
 */
import { platform } from '../platform/current.js';

/**
 * The shortest text treated as a secret. A header value (or a part of it, below) shorter than this is
 * not redacted: it would match ordinary words and numbers in messages, and is no credential.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Headers whose values the SDK itself sets and are not secrets (the propagated deadline, trace
 * context); redacting them would hide numbers and trace ids in messages.
 */
const NOT_SECRET: ReadonlySet<string> = new Set(['a2a-deadline-ms', 'traceparent', 'tracestate']);

/** `<scheme> <credentials>` as in `Authorization: Bearer <token>`. */
const SCHEME = /^([!-~]+)[ \t]+(\S[\s\S]*)$/;

/** `name=value` parameters inside a header value (cookies, `key=…; region=…`): each value is a secret of its own. */
const PARAMETER = /(?:^|[;,\s])[^=;,\s]+=("?)([^;,"]*)\1/g;

/**
 * The texts to hide for a request's headers (any case of name): each value of every header but the
 * SDK's own, trimmed or not; the credentials after an auth scheme (`Bearer <token>`), and for `Basic`
 * the decoded `user:password` and the password; each `name=value` parameter's value (a cookie's
 * session id); each also as it reads inside a JSON string and percent-encoded. Only texts of at least
 * {@link MIN_SECRET_LENGTH} characters; longest first.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const found = new Set<string>();
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string' || NOT_SECRET.has(name.toLowerCase())) continue;
    const plain = [value, value.trim()];
    const scheme = SCHEME.exec(value.trim());
    if (scheme) {
      const credentials = (scheme[2] as string).trim();
      plain.push(credentials);
      if ((scheme[1] as string).toLowerCase() === 'basic') plain.push(...basicParts(credentials));
    }
    for (const match of value.matchAll(PARAMETER)) plain.push((match[2] as string).trim());
    for (const text of plain) {
      for (const form of [text, JSON.stringify(text).slice(1, -1), safeEncode(text)]) if (form.length >= MIN_SECRET_LENGTH) found.add(form);
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** The decoded `user:password` of Basic credentials, and the password. */
function basicParts(credentials: string): string[] {
  if (!/^[A-Za-z0-9+/]+=*$/.test(credentials)) return [];
  const decoded = platform.base64ToUtf8(credentials);
  const colon = decoded.indexOf(':');
  return colon < 0 ? [decoded] : [decoded, decoded.slice(colon + 1)];
}

/** `encodeURIComponent`, or the text itself for one with a lone surrogate (which it cannot encode). */
function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // URIError: a lone surrogate has no percent-encoding; the plain form is redacted already.
    return text;
  }
}

/**
 * The texts to hide for a request's URL: its password and each query parameter value (an API key in
 * `?key=…`), as sent and decoded; only those of at least {@link MIN_SECRET_LENGTH} characters.
 */
export function urlSecrets(url: string | undefined): string[] {
  if (url === undefined || !URL.canParse(url)) return [];
  const u = new URL(url);
  const found = new Set<string>();
  const add = (text: string): void => {
    if (text.length >= MIN_SECRET_LENGTH) found.add(text);
  };
  add(u.password);
  add(safeDecode(u.password));
  for (const [, value] of u.searchParams) {
    add(value);
    add(safeEncode(value));
  }
  return [...found];
}

/** `decodeURIComponent`, or the text itself when it is not valid percent-encoding. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // URIError: not percent-encoded after all; the text as it is was added already.
    return text;
  }
}
