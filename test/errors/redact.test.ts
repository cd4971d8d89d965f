import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import { hintsOf } from '../../src/errors/hints.js';
import { REDACTED, redactFailure, redactSecrets } from '../../src/errors/redact.js';
import { headerSecrets, MIN_SECRET_LENGTH } from '../../src/errors/secrets.js';
import { bounded } from '../../src/protocol/validate.js';
import { DEADLINE_HEADER } from '../../src/protocol/deadline-header.js';
import { leaks, strings } from './secret-leaks.js';

/** A secret that is a plausible header value: printable ASCII, quotes and backslashes included. */
const secret = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: MIN_SECRET_LENGTH, maxLength: 24 });

/** An error graph with `s` planted wherever a hostile server or the platform could put it. */
function planted(s: string, where: number): A2AClientError {
  const platform = new TypeError(`Headers.append: "${s}" is an invalid header value.`);
  const fetchFailed = new TypeError('fetch failed', { cause: where % 2 === 0 ? platform : new AggregateError([platform], 'all failed') });
  const attempt = new A2AClientError({ kind: 'connection', message: 'Connection failed: other', cause: fetchFailed, reason: 'other', phase: 'after-send' });
  let deep: unknown = { token: s };
  for (let i = 0; i < 200; i++) deep = [deep];
  const data = [{ headers: { authorization: `Bearer ${s}` } }, JSON.parse(`{"__proto__": {"x": ${JSON.stringify(s)}}}`) as unknown, deep];
  return new A2AClientError({
    kind: 'json-rpc',
    message: `JSON-RPC error -32603: token ${s} rejected`,
    code: -32603,
    data,
    status: 500,
    headers: { 'x-echo': s, 'www-authenticate': `Bearer error="invalid_token", token="${s}"` },
    bodyText: JSON.stringify({ echo: s }),
    problem: { type: 'about:blank', detail: `bad ${s}` },
    rpcStatus: { code: 16, status: 'UNAUTHENTICATED', message: s, details: [{ '@type': 't', reason: s }] },
    issues: [{ path: 'a', message: s }],
    method: 'getTask',
    agent: 'billing',
    retryable: true,
    retryAfterMs: 5,
    phase: 'after-send',
    attempts: [attempt],
    cause: attempt,
  });
}

describe('redactSecrets', () => {
  it('removes a secret from every string of an error, its causes and attempts, whatever the secret', () => {
    fc.assert(
      fc.property(secret, fc.nat(), (s, where) => {
        const error = planted(s, where);
        expect(leaks(error, s).length).toBeGreaterThan(0);
        const clean = redactSecrets(error, headerSecrets({ 'x-api-key': s }));
        expect(leaks(clean, s)).toEqual([]);
        // What callers branch on is kept.
        expect(clean).toBeInstanceOf(A2AClientError);
        expect(clean).toMatchObject({ kind: 'json-rpc', code: -32603, status: 500, method: 'getTask', retryable: true, retryAfterMs: 5, phase: 'after-send' });
        expect(clean.attempts[0]?.kind).toBe('connection');
        expect((clean.cause as A2AClientError).cause).toBeInstanceOf(TypeError);
      }),
      { numRuns: 200 },
    );
  });

  it('returns the very same error when no secret occurs in it', () => {
    const error = planted('harmless-but-absent', 0);
    expect(redactSecrets(error, headerSecrets({ authorization: 'Bearer s3cr3t-token' }))).toBe(error);
  });

  it('replaces the secret with [REDACTED] and keeps the rest of the text', () => {
    const error = new A2AClientError({ kind: 'http', message: 'HTTP 401: token s3cr3t-token expired', status: 401 });
    expect(redactSecrets(error, headerSecrets({ authorization: 'Bearer s3cr3t-token' })).message).toBe(`HTTP 401: token ${REDACTED} expired`);
  });

  it('copies a platform error keeping its class and code', () => {
    const cause = Object.assign(new TypeError('invalid header "s3cr3t-token"'), { code: 'ERR_INVALID_CHAR' });
    const error = new A2AClientError({ kind: 'connection', message: 'Connection failed', cause });
    const clean = redactSecrets(error, ['s3cr3t-token']);
    expect(clean.cause).toBeInstanceOf(TypeError);
    expect(clean.cause).toMatchObject({ code: 'ERR_INVALID_CHAR', message: `invalid header "${REDACTED}"` });
    expect(cause.message).toContain('s3cr3t-token');
  });

  it('survives cycles and data nested far too deep to walk recursively', () => {
    const cyclic = new Error('loop s3cr3t-token') as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    let deep: unknown = 's3cr3t-token';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const error = new A2AClientError({ kind: 'json-rpc', message: 'x', data: deep, cause: cyclic });
    const clean = redactSecrets(error, ['s3cr3t-token']);
    expect(strings(clean.data)).toEqual([REDACTED]);
    expect(leaks(clean.cause, 's3cr3t-token')).toEqual([]);
  });

  it('masks what a cut leaves of a secret: a message bounded inside it, a body capped inside it, a V8 JSON snippet', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 24, maxLength: 200 }).filter((t) => !t.includes('...')), fc.nat(), (tok, at) => {
        const cut = 8 + (at % (tok.length - 8));
        const secrets = headerSecrets({ authorization: `Bearer ${tok}` });
        // Our own cut: `bounded` ends the text with "…" inside the token.
        const message = bounded(`Invalid token: Bearer ${tok}`, 'Invalid token: Bearer '.length + cut);
        const clean = redactSecrets(new A2AClientError({ kind: 'json-rpc', message, bodyText: `{"echo":"${tok}"}`.slice(0, 1024 + cut).padStart(1024 + cut, ' ') }), secrets);
        expect(clean.message.startsWith('Invalid token: ')).toBe(true);
        expect(clean.message.endsWith(`${REDACTED}…`)).toBe(true);
        for (const text of [clean.message, clean.bodyText ?? '']) expect(text.includes(tok.slice(0, 8))).toBe(false);
      }),
      { numRuns: 200 },
    );
    const tok = 'supersecrettokenvalue1234567890';
    let syntax: unknown;
    try {
      JSON.parse(`[1,2,3,4,5,6,7,8,9,10,11,12,13,${tok}, 14,15,16,17,18,19,20,21,22,23,24]`);
    } catch (error) {
      syntax = error;
    }
    const clean = redactSecrets(new A2AClientError({ kind: 'invalid-response', message: 'Invalid response: body is not JSON', cause: syntax }), [tok]);
    expect(String((clean.cause as Error).message)).not.toContain(tok.slice(0, 8));
    expect(clean.cause).toBeInstanceOf(SyntaxError);
  });

  it('leaves ordinary words that merely start or end like a secret alone', () => {
    const error = new A2AClientError({ kind: 'http', message: 'Loading... token expired', headers: { 'www-authenticate': 'Bearer' }, data: { token: 'Bearer' } });
    expect(redactSecrets(error, headerSecrets({ authorization: 'Bearer s3cr3t-token' }))).toBe(error);
  });

  it('redacts a secret used as an object key', () => {
    const error = new A2AClientError({ kind: 'json-rpc', message: 'x', data: { 's3cr3t-token': { seen: true }, ok: 1 } });
    const clean = redactSecrets(error, ['s3cr3t-token']);
    expect(clean.data).toEqual({ [REDACTED]: { seen: true }, ok: 1 });
  });

  it('keeps the retry hints a redacted header value would have erased', () => {
    const error = new A2AClientError({ kind: 'http', message: 'HTTP 503', status: 503, headers: { 'retry-after': '1800' } });
    const clean = redactFailure(error, { 'x-session-ttl': '1800' });
    expect(clean.headers?.['retry-after']).toBe(REDACTED);
    expect(hintsOf(clean)).toEqual({ retryAfterMs: 1_800_000, source: 'header:retry-after' });
  });

  it('never spells a secret that the marker itself contains', () => {
    const error = new A2AClientError({ kind: 'http', message: 'token EDACT here' });
    expect(redactSecrets(error, ['EDACT']).message).toBe('token *** here');
  });
});

describe('headerSecrets', () => {
  it('covers the value, the credentials after an auth scheme and their JSON-escaped form', () => {
    expect(headerSecrets({ authorization: 'Bearer ab"cd' })).toEqual(expect.arrayContaining(['Bearer ab"cd', 'ab"cd', 'ab\\"cd']));
  });

  it('covers each name=value parameter of a value (a session cookie)', () => {
    expect(headerSecrets({ cookie: 'theme=dark; sid=abc123def456; lang="en-GB"' })).toEqual(expect.arrayContaining(['abc123def456', 'en-GB']));
  });

  it('covers decoded Basic credentials and the password', () => {
    const basic = `Basic ${Buffer.from('alice:hunter22').toString('base64')}`;
    expect(headerSecrets({ authorization: basic })).toEqual(expect.arrayContaining(['alice:hunter22', 'hunter22']));
  });

  it(`skips values shorter than ${MIN_SECRET_LENGTH} characters and the SDK's own headers`, () => {
    expect(headerSecrets({ 'x-a': 'abc', [DEADLINE_HEADER]: '119998', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toEqual([]);
  });
});
