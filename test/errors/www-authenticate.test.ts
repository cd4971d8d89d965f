import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeChallenges, parseWwwAuthenticate, type ParsedChallenge } from '../../src/errors/www-authenticate.js';

describe('parseWwwAuthenticate', () => {
  it.each<[string, ParsedChallenge[]]>([
    ['Bearer', [{ scheme: 'Bearer', params: {} }]],
    ['Bearer realm="agents", error="invalid_token", error_description="The token expired"', [{ scheme: 'Bearer', params: { realm: 'agents', error: 'invalid_token', error_description: 'The token expired' } }]],
    ['Bearer error="insufficient_scope", scope="tasks:write tasks:read"', [{ scheme: 'Bearer', params: { error: 'insufficient_scope', scope: 'tasks:write tasks:read' } }]],
    ['Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"', [
      { scheme: 'Newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'Basic', params: { realm: 'simple' } },
    ]],
    ['Negotiate YIIFyQYGKwYBBQUCoIIF==, Basic', [{ scheme: 'Negotiate', params: {}, token68: 'YIIFyQYGKwYBBQUCoIIF==' }, { scheme: 'Basic', params: {} }]],
    ['  ,Basic REALM = "x" ,, DPoP algs="ES256 PS256"', [{ scheme: 'Basic', params: { realm: 'x' } }, { scheme: 'DPoP', params: { algs: 'ES256 PS256' } }]],
    ['', []],
    ['"quoted" garbage', []],
  ])('%j', (header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });

  it('stops at malformed text, keeping what it read', () => {
    expect(parseWwwAuthenticate('Bearer realm="a" ; oops')).toEqual([{ scheme: 'Bearer', params: { realm: 'a' } }]);
    expect(parseWwwAuthenticate('Bearer realm="unterminated')).toEqual([{ scheme: 'Bearer', params: { realm: 'unterminated' } }]);
  });

  it('reads at most 8 KiB of a header and keeps a parameter named __proto__ as a plain key', () => {
    expect(parseWwwAuthenticate(`Bearer realm="${'x'.repeat(100_000)}"`)[0]?.params['realm']).toHaveLength(8192 - 'Bearer realm="'.length);
    const [challenge] = parseWwwAuthenticate('Bearer __proto__="x"');
    expect(Object.getPrototypeOf(challenge?.params)).toBe(Object.prototype);
    expect(challenge?.params).toEqual(JSON.parse('{"__proto__":"x"}'));
  });

  const tchar = fc.constantFrom(...'!#$%&\'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
  const token = fc.string({ unit: tchar, minLength: 1, maxLength: 10 });
  const lowerToken = fc.string({ unit: fc.constantFrom(...'!#$%&\'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz'.split('')), minLength: 1, maxLength: 10 });
  const token68 = fc
    .tuple(fc.string({ unit: fc.constantFrom(...'ABCxyz0189-._~+/'.split('')), minLength: 1, maxLength: 16 }), fc.integer({ min: 0, max: 2 }))
    .map(([body, pad]) => body + '='.repeat(pad));
  const value = fc.oneof(token, fc.string({ unit: fc.constantFrom(...' \tab"\\,;=é€'.split('')), maxLength: 12 }));
  const challenge = fc.oneof(
    fc.record({ scheme: token, params: fc.dictionary(lowerToken, value, { maxKeys: 4 }) }),
    fc.record({ scheme: token, params: fc.constant({}), token68 }),
  );
  const serialise = (c: ParsedChallenge, quoteAll: boolean): string => {
    if (c.token68 !== undefined) return `${c.scheme} ${c.token68}`;
    const params = Object.entries(c.params).map(([k, v]) => (!quoteAll && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(v) ? `${k}=${v}` : `${k}="${v.replace(/["\\]/g, '\\$&')}"`));
    return params.length === 0 ? c.scheme : `${c.scheme} ${params.join(', ')}`;
  };

  it('property: any list of well-formed challenges reads back to itself', () => {
    fc.assert(
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.constantFrom(', ', ',', ' , '), (challenges, quoteAll, sep) => {
        expect(parseWwwAuthenticate(challenges.map((c) => serialise(c, quoteAll)).join(sep))).toEqual(challenges);
      }),
      { numRuns: 500 },
    );
  });

  it('property: never throws, and every scheme it returns is a token', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const c of parseWwwAuthenticate(text)) expect(c.scheme).toMatch(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('describeChallenges', () => {
  it('names schemes with realm, error and scope only, never free text', () => {
    const text = describeChallenges(parseWwwAuthenticate('Bearer realm="agents", error="invalid_token", error_description="token abc123 expired", Basic'));
    expect(text).toBe('Bearer (realm "agents", error "invalid_token") or Basic');
    expect(describeChallenges([])).toBe('an unnamed scheme');
  });
});
