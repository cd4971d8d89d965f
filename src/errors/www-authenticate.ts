/**
 * `WWW-Authenticate` (RFC 9110 §11.6.1): the challenges an agent answers a refused request with, e.g.
 * `Bearer realm="agents", error="invalid_token", Basic realm="legacy"`. Parsed leniently: a malformed
 * part ends the parse with what was read so far; nothing throws.
 */

/** One challenge: its auth scheme, and either its parameters or a token68. */
export interface ParsedChallenge {
  /** The auth scheme as sent, e.g. `Bearer` (compare case-insensitively). */
  scheme: string;
  /** Parameters with lower-cased names, quoted-string values unescaped. */
  params: Record<string, string>;
  /** The token68 form (`Negotiate <blob>`), when the challenge has one instead of parameters. */
  token68?: string;
}

/** Headers longer than this are read only up to it (a hostile server could send megabytes). */
const MAX_LENGTH = 8192;
/** At most this many challenges and parameters per challenge are kept. */
const MAX_ITEMS = 32;

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/** A cursor over the header text. */
class Reader {
  pos = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text.charAt(this.pos);
  }
  /** Skips spaces and tabs. */
  ows(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }
  /** Skips whitespace and list separators (empty list elements are allowed). */
  separators(): void {
    while (this.peek() === ' ' || this.peek() === '\t' || this.peek() === ',') this.pos++;
  }
  run(chars: RegExp): string {
    const start = this.pos;
    while (!this.done && chars.test(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }
  /** A quoted-string at the cursor (which is on the opening quote), unescaped; unterminated reads to the end. */
  quoted(): string {
    this.pos++;
    let out = '';
    while (!this.done) {
      const c = this.peek();
      this.pos++;
      if (c === '"') return out;
      if (c === '\\' && !this.done) {
        out += this.peek();
        this.pos++;
      } else out += c;
    }
    return out;
  }
}

/**
 * True when, at the reader's position, a parameter (`name = value`) starts rather than a new challenge
 * (`Scheme …`) or a token68. Does not move the reader.
 */
function paramAhead(r: Reader): boolean {
  const save = r.pos;
  const name = r.run(TCHAR);
  r.ows();
  let param = false;
  if (name !== '' && r.peek() === '=') {
    // `name=` followed by only more `=` then the end or a comma is a token68 ending in padding.
    r.run(/=/);
    r.ows();
    param = !(r.done || r.peek() === ',');
  }
  r.pos = save;
  return param;
}

/**
 * Parses a `WWW-Authenticate` value (several headers joined with `, ` are one list) into its
 * challenges, in order. Returns `[]` for `undefined` or text with no challenge. Never throws.
 */
export function parseWwwAuthenticate(value: string | undefined): ParsedChallenge[] {
  if (value === undefined) return [];
  const r = new Reader(value.length > MAX_LENGTH ? value.slice(0, MAX_LENGTH) : value);
  const out: ParsedChallenge[] = [];
  r.separators();
  while (!r.done && out.length < MAX_ITEMS) {
    const scheme = r.run(TCHAR);
    if (scheme === '') break;
    const challenge: ParsedChallenge = { scheme, params: {} };
    out.push(challenge);
    r.ows();
    if (r.done || r.peek() === ',') {
      r.separators();
      continue;
    }
    if (!paramAhead(r)) {
      const token68 = r.run(TOKEN68_CHAR) + r.run(/=/);
      if (token68 === '') break;
      challenge.token68 = token68;
      r.separators();
      continue;
    }
    let count = 0;
    while (!r.done && paramAhead(r)) {
      const name = r.run(TCHAR).toLowerCase();
      r.ows();
      r.pos++; // '='
      r.ows();
      const val = r.peek() === '"' ? r.quoted() : r.run(TCHAR);
      if (count++ < MAX_ITEMS) Object.defineProperty(challenge.params, name, { value: val, enumerable: true, writable: true, configurable: true });
      r.ows();
      if (r.peek() !== ',') break;
      r.separators();
    }
    r.ows();
    // Anything else here is malformed: stop with what was read.
    if (!r.done && !TCHAR.test(r.peek())) break;
  }
  return out;
}

/**
 * A short description of challenges for an error message: each scheme with its `realm`, `error` and
 * `scope` (never `error_description` or other free text, which a server could fill with anything),
 * e.g. `Bearer (realm "agents", error "insufficient_scope", scope "tasks:write")`.
 */
export function describeChallenges(challenges: readonly ParsedChallenge[]): string {
  const shown = challenges.slice(0, 4).map((c) => {
    const params = ['realm', 'error', 'scope']
      .filter((name) => c.params[name] !== undefined)
      .map((name) => `${name} "${(c.params[name] ?? '').slice(0, 80)}"`);
    return `${c.scheme.slice(0, 40)}${params.length > 0 ? ` (${params.join(', ')})` : ''}`;
  });
  return shown.join(' or ') || 'an unnamed scheme';
}
