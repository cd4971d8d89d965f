import { describe, expect, it } from 'vitest';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import { hintsOf } from '../../src/errors/hints.js';
import { delayFromHeaders, parseDuration, parseRateLimitReset, parseRetryAfter, parseStructuredRateLimit } from '../../src/errors/retry-after.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('retry-after parsers', () => {
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['1.5', 1500],
    ['Thu, 01 Jan 2026 00:00:30 GMT', 30_000],
    ['Wed, 31 Dec 2025 23:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    ['-5', undefined],
  ])('Retry-After %j → %j ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('reads RateLimit reset as delta seconds or epoch seconds', () => {
    expect(parseRateLimitReset('7', NOW)).toBe(7000);
    expect(parseRateLimitReset(String(NOW / 1000 + 12), NOW)).toBe(12_000);
    expect(parseRateLimitReset('x', NOW)).toBeUndefined();
  });

  it('reads the structured RateLimit header: spent quotas only, any quota on a refused (429/503) response', () => {
    expect(parseStructuredRateLimit('"default";r=0;t=30')).toBe(30_000);
    expect(parseStructuredRateLimit('"a";r=5;t=60, "b";r=0;t=4')).toBe(4000);
    expect(parseStructuredRateLimit('"a";r=99;t=60')).toBeUndefined();
    expect(parseStructuredRateLimit('"a";t=9')).toBeUndefined();
    expect(parseStructuredRateLimit('"a";t=9', true)).toBe(9000);
    expect(parseStructuredRateLimit('"a";r=5;t=60', true)).toBe(60_000);
    expect(parseStructuredRateLimit('garbage;;=;', true)).toBeUndefined();
  });

  it('a delay too large to be a number (hundreds of digits) is no delay, never Infinity', () => {
    const huge = '9'.repeat(400);
    expect(parseRetryAfter(huge, NOW)).toBeUndefined();
    expect(parseRateLimitReset(huge, NOW)).toBeUndefined();
    expect(parseStructuredRateLimit(`"a";r=0;t=${huge}`)).toBeUndefined();
    expect(parseDuration(`${huge}s`)).toBeUndefined();
    expect(hintsOf(new A2AClientError({ kind: 'http', message: 'x', status: 503, headers: { 'retry-after': huge } }), NOW)).toEqual({});
  });

  it('reads protobuf durations', () => {
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('3s')).toBe(3000);
    expect(parseDuration('3')).toBeUndefined();
    expect(parseDuration(3)).toBeUndefined();
  });

  it('takes headers in order retry-after, ratelimit, ratelimit-reset, x-ratelimit-reset', () => {
    expect(delayFromHeaders({ 'retry-after': '2', 'ratelimit-reset': '9' }, NOW)).toEqual({ ms: 2000, source: 'header:retry-after' });
    expect(delayFromHeaders({ 'x-ratelimit-reset': '3', 'x-ratelimit-remaining': '0' }, NOW)).toEqual({ ms: 3000, source: 'header:x-ratelimit-reset' });
    expect(delayFromHeaders({ 'x-ratelimit-reset': '3' }, NOW, 429)).toEqual({ ms: 3000, source: 'header:x-ratelimit-reset' });
    expect(delayFromHeaders({ ratelimit: 'x;r=0;t=1' }, NOW)).toEqual({ ms: 1000, source: 'header:ratelimit' });
    expect(delayFromHeaders({}, NOW)).toBeUndefined();
  });

  it('reads RateLimit headers with quota left as information, not as a delay (servers send them on every response)', () => {
    const informational: Record<string, string>[] = [
      { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '60' },
      { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': String(NOW / 1000 + 3600) },
      { ratelimit: '"default";r=99;t=0' },
    ];
    for (const headers of informational) {
      expect(delayFromHeaders(headers, NOW, 200)).toBeUndefined();
      expect(delayFromHeaders(headers, NOW, 500)).toBeUndefined();
      expect(hintsOf(new A2AClientError({ kind: 'json-rpc', message: 'x', code: -32603, status: 200, headers }), NOW)).toEqual({});
    }
    expect(delayFromHeaders(informational[0], NOW, 503)).toEqual({ ms: 60_000, source: 'header:ratelimit-reset' });
  });
});

describe('hintsOf', () => {
  const http = (init: Partial<ConstructorParameters<typeof A2AClientError>[0]>) =>
    new A2AClientError({ kind: 'http', message: 'x', status: 503, ...init });
  const rpc = (data: unknown) => new A2AClientError({ kind: 'json-rpc', message: 'x', code: -32603, data });

  it.each([
    ['problem is_retriable false', http({ problem: { is_retriable: false } }), { retryable: false, source: 'problem' }],
    ['problem retry_after_ms', http({ problem: { is_retriable: true, retry_after_ms: 250 } }), { retryable: true, retryAfterMs: 250, source: 'problem' }],
    ['problem retry_after_seconds', http({ problem: { retry_after_seconds: 2 } }), { retryAfterMs: 2000, source: 'problem' }],
    ['data retryable + retryAfter seconds', rpc({ retryable: true, retryAfter: 1.5 }), { retryable: true, retryAfterMs: 1500, source: 'data' }],
    ['data retry_after_ms', rpc({ retry_after_ms: 40 }), { retryAfterMs: 40, source: 'data' }],
    ['data retryable false', rpc({ retryable: false }), { retryable: false, source: 'data' }],
    [
      'v1.0 RetryInfo in data',
      rpc([{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'X' }, { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.3s' }]),
      { retryAfterMs: 300, source: 'retry-info' },
    ],
    [
      'RetryInfo in rpcStatus.details',
      http({ rpcStatus: { code: 14, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }] } }),
      { retryAfterMs: 2000, source: 'retry-info' },
    ],
    ['Retry-After header', http({ headers: { 'retry-after': '1' } }), { retryAfterMs: 1000, source: 'header:retry-after' }],
    ['problem wins over header', http({ problem: { retry_after_ms: 5 }, headers: { 'retry-after': '9' } }), { retryAfterMs: 5, source: 'problem' }],
    ['nothing', http({}), {}],
  ])('%s', (_name, err, expected) => {
    expect(hintsOf(err, NOW)).toEqual(expected);
  });

  it.each([
    ['string retryable', rpc({ retryable: 'yes', retryAfter: 'soon' })],
    ['negative delay', rpc({ retryAfter: -3 })],
    ['null data', rpc(null)],
    ['array of junk', rpc([1, null, { '@type': 5 }, { '@type': 'google.rpc.RetryInfo', retryDelay: 7 }])],
    ['junk problem', http({ problem: { is_retriable: 'no' as unknown as boolean, retry_after_ms: Number.NaN } })],
    ['junk header', http({ headers: { 'retry-after': 'tomorrow-ish' } })],
  ])('tolerates junk: %s', (_name, err) => {
    expect(() => hintsOf(err, NOW)).not.toThrow();
    const hints = hintsOf(err, NOW);
    expect(hints.retryable).toBeUndefined();
    expect(hints.retryAfterMs).toBeUndefined();
  });
});
