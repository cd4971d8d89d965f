import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import { hintsOf } from '../../src/errors/hints.js';
import { ERROR_KINDS } from '../../src/errors/kinds.js';
import { classify, type ClassifyContext } from '../../src/resilience/classify.js';
import { DEFAULT_RETRY } from '../../src/resilience/defaults.js';
import { errors } from './fixtures.js';

const send: ClassifyContext = { method: 'sendMessage', idempotent: false, options: DEFAULT_RETRY };
const get: ClassifyContext = { method: 'getTask', idempotent: true, options: DEFAULT_RETRY };
const create: ClassifyContext = { method: 'createTaskPushNotificationConfig', idempotent: false, options: DEFAULT_RETRY };
const sendAmbiguous: ClassifyContext = { ...send, options: { ...DEFAULT_RETRY, ambiguous: true } };
const stream: ClassifyContext = { ...send, method: 'sendStreamingMessage' };

type Row = [name: string, error: A2AClientError, ctx: ClassifyContext, retryable: boolean, countsAsFailure: boolean, delayMs?: number];

const rows: Row[] = [
  // 0. refused credentials: never retried in a loop, whatever the answer hints (the challenge repeat is below the pipeline)
  ['401 + Retry-After', errors.http(401, { 'retry-after': '1', 'www-authenticate': 'Bearer' }), get, false, false],
  ['401 with a JSON-RPC body asking for a retry', errors.rpc(-32603, { retryable: true }).with({ status: 401 }), get, false, false],
  ['403 insufficient_scope + Retry-After', errors.http(403, { 'retry-after': '1', 'www-authenticate': 'Bearer error="insufficient_scope"' }), get, false, false],
  ['a bare 403 + Retry-After keeps the hint rule (gateways rate-limit with 403)', errors.http(403, { 'retry-after': '1' }), get, true, false, 1000],
  // 0. a redirect on an RPC call is configuration: never retried, whatever it hints, not a health failure
  ['307 + Retry-After on a send', errors.http(307, { 'retry-after': '1', location: '/v2' }), send, false, false],
  ['301 with a problem body asking for a retry on a read', errors.http(301, { location: '/v2' }, { retry_after_ms: 10 }), get, false, false],
  ['308 on a read with the status listed in retryableCodes', errors.http(308, { location: '/v2' }), { ...get, options: { ...DEFAULT_RETRY, retryableCodes: [308] } }, false, false],
  // 1. explicit "don't retry" beats everything
  ['−32603 with data.retryable false', errors.rpc(-32603, { retryable: false }), get, false, true],
  ['503 with is_retriable false', errors.http(503, {}, { is_retriable: false, retry_after_ms: 100 }), get, false, true],
  ['503 + Retry-After but is_retriable false', errors.http(503, { 'retry-after': '1' }, { is_retriable: false }), get, false, true],
  // 2. explicit hint with a delay
  ['503 + Retry-After', errors.http(503, { 'retry-after': '2' }), send, true, true, 2000],
  ['429 problem retry_after_ms', errors.http(429, {}, { retry_after_ms: 150 }), send, true, true, 150],
  ['−32603 data.retryAfter seconds', errors.rpc(-32603, { retryable: true, retryAfter: 0.5 }), send, true, true, 500],
  ['−32000 with data.retryable true (hint beats table)', errors.rpc(-32000, { retryable: true }), send, true, false],
  ['−32001 with retry_after_ms hint', errors.rpc(-32001, { retry_after_ms: 10 }), send, true, false, 10],
  ['v1.0 RetryInfo', errors.rpc(-32603, [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }]), send, true, true, 1500],
  ['400 + Retry-After (the server said when to come back: hint beats table)', errors.http(400, { 'retry-after': '1' }), send, true, false, 1000],
  ['−32602 with a Retry-After response header (a JSON-RPC code outranks a response-wide header)', new A2AClientError({ kind: 'json-rpc', message: 'x', code: -32602, status: 200, headers: { 'retry-after': '1' } }), send, false, false],
  ['400 + retry_after_ms in its problem body (the error itself asks: beats the table)', errors.http(400, {}, { retry_after_ms: 1000 }), send, true, false, 1000],
  ['200 + −32603 with informational RateLimit headers on sendMessage (quota left: no hint)', new A2AClientError({ kind: 'json-rpc', message: 'x', code: -32603, status: 200, headers: { 'ratelimit-remaining': '99', 'ratelimit-reset': '60' } }), send, false, true],
  ['RateLimit-Reset header on 429', errors.http(429, { 'ratelimit-reset': '3' }), send, true, true, 3000],
  // 3. code table — JSON-RPC: retryable codes are retried for reads; for sends they are ambiguous
  ['−32603 internal on getTask', errors.rpc(-32603), get, true, true],
  ['−32006 invalid agent response on getTask', errors.rpc(-32006), get, true, true],
  ['bare −32603 on sendMessage (the agent may have run)', errors.rpc(-32603), send, false, true],
  ['bare −32603 on sendStreamingMessage', errors.rpc(-32603), stream, false, true],
  ['bare −32006 on sendMessage', errors.rpc(-32006), send, false, true],
  ['bare −32603 on sendMessage with ambiguous: true', errors.rpc(-32603), sendAmbiguous, true, true],
  ['bare −32603 on a non-idempotent method, even with ambiguous: true', errors.rpc(-32603), { ...create, options: sendAmbiguous.options }, false, true],
  ...([-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32007, -32008, -32009, -32000, -32050, -32099].map(
    (code): Row => [`${code} fatal`, errors.rpc(code), get, false, false],
  )),
  ['TaskNotFound never counts', errors.rpc(-32001, undefined, 'TaskNotFound'), get, false, false],
  ['−32602 fatal on sendMessage with ambiguous: true', errors.rpc(-32602), sendAmbiguous, false, false],
  // 3. code table — HTTP
  ...([408, 425, 429, 500, 502, 503, 504].map((status): Row => [`HTTP ${status} retryable on getTask`, errors.http(status), get, true, status !== 425])),
  ...([408, 425, 500, 502, 504].map((status): Row => [`bare HTTP ${status} not retried on sendMessage`, errors.http(status), send, false, status !== 425])),
  // a bare 429 / 503 is a refusal (RFC 9110, RFC 6585): the server did not process the request, so a send is repeated
  ...([429, 503].map((status): Row => [`bare HTTP ${status} retried on sendMessage (a refusal)`, errors.http(status), send, true, true])),
  ...([429, 503].map((status): Row => [`bare HTTP ${status} retried on sendStreamingMessage`, errors.http(status), stream, true, true])),
  ...([429, 503].map((status): Row => [`bare HTTP ${status} retried on any non-idempotent method`, errors.http(status), create, true, true])),
  ['HTTP 503 in fatalCodes stays fatal on sendMessage', errors.http(503), { ...send, options: { ...DEFAULT_RETRY, fatalCodes: [503] } }, false, true],
  ['bare HTTP 500 on sendMessage with ambiguous: true', errors.http(500), sendAmbiguous, true, true],
  ...([400, 401, 403, 404, 405, 409, 422].map((status): Row => [`HTTP ${status} fatal`, errors.http(status), get, false, false])),
  ['HTTP 501 fatal but a health failure', errors.http(501), get, false, true],
  // 4. transport kinds
  ['connection refused (before send) on sendMessage', errors.refused(), send, true, true],
  ['connection refused on a non-idempotent method', errors.refused(), create, true, true],
  ['a reset before the request was sent, on sendMessage', errors.reset().with({ phase: 'before-send' }), send, true, true],
  ['a socket closed after sending, on sendMessage', errors.reset().with({ reason: 'closed' }), send, false, true],
  ['dns', errors.of('connection').with({ reason: 'dns' }), create, true, true],
  ['connect-timeout', errors.of('connect-timeout'), create, true, true],
  ['read-timeout on idempotent', errors.readTimeout(), get, true, true],
  ['read-timeout on sendMessage (not by default)', errors.readTimeout(), send, false, true],
  ['read-timeout on sendMessage with ambiguous: true (same messageId)', errors.readTimeout(), sendAmbiguous, true, true],
  ['read-timeout on a non-idempotent method', errors.readTimeout(), create, false, true],
  ['idle-timeout on sendStreamingMessage (not by default)', errors.of('idle-timeout'), stream, false, true],
  ['idle-timeout on sendStreamingMessage with ambiguous: true', errors.of('idle-timeout'), { ...sendAmbiguous, method: 'sendStreamingMessage' }, true, true],
  ['reset after send on idempotent', errors.reset(), get, true, true],
  ['reset after send on sendMessage (not by default)', errors.reset(), send, false, true],
  ['reset after send on sendMessage with ambiguous: true', errors.reset(), sendAmbiguous, true, true],
  ['reset after send on a non-idempotent method', errors.reset(), create, false, true],
  // certificates and proxies: configuration is never retried and spares the agent's breaker
  ['a certificate error (tls, before send) on getTask', errors.of('connection').with({ reason: 'tls', phase: 'before-send' }), get, false, false],
  ['a certificate error (tls, before send) on sendMessage with ambiguous: true', errors.of('connection').with({ reason: 'tls', phase: 'before-send' }), sendAmbiguous, false, false],
  ['a TLS session broken after send (bad record) on getTask stays a retried health failure', errors.of('connection').with({ reason: 'tls', phase: 'after-send' }), get, true, true],
  ['proxy 407 (its credentials)', errors.of('connection').with({ reason: 'proxy', status: 407, phase: 'before-send' }), get, false, false],
  ['proxy 403 (its policy) on sendMessage', errors.of('connection').with({ reason: 'proxy', status: 403, phase: 'before-send' }), send, false, false],
  ['proxy 502 (could not reach the agent) on sendMessage', errors.of('connection').with({ reason: 'proxy', status: 502, phase: 'before-send' }), send, true, true],
  // never retried here
  ...(['aborted', 'deadline-exceeded', 'invalid-response', 'unsupported', 'card', 'circuit-open', 'budget-exhausted', 'bulkhead-rejected'] as const).map(
    (kind): Row => [`${kind} never retried`, errors.of(kind), get, false, false],
  ),
];

describe('classify', () => {
  it.each(rows)('%s', (_name, error, ctx, retryable, countsAsFailure, delayMs) => {
    const c = classify(error, ctx);
    expect(c.retryable).toBe(retryable);
    expect(c.countsAsFailure).toBe(countsAsFailure);
    expect(c.delayMs).toBe(delayMs);
    expect(c.reason).toEqual(expect.any(String));
  });

  it('lets a client override the code table both ways', () => {
    const options = { ...DEFAULT_RETRY, retryableCodes: [-32050, 409], fatalCodes: [-32603, 503] };
    const ctx = { ...get, options };
    expect(classify(errors.rpc(-32050), ctx)).toMatchObject({ retryable: true, countsAsFailure: true });
    expect(classify(errors.rpc(-32603), ctx)).toMatchObject({ retryable: false, countsAsFailure: false });
    expect(classify(errors.http(409), ctx).retryable).toBe(true);
    expect(classify(errors.http(503), ctx)).toMatchObject({ retryable: false, countsAsFailure: true });
  });
});

/** Random failures as the transport and bindings build them: every kind, codes, statuses, hints, phases. */
const anyFailure: fc.Arbitrary<A2AClientError> = fc
  .record({
    kind: fc.constantFrom(...ERROR_KINDS),
    code: fc.option(fc.constantFrom(-32700, -32603, -32602, -32006, -32001, -32050, -32000), { nil: undefined }),
    status: fc.option(fc.constantFrom(200, 400, 404, 408, 425, 429, 500, 501, 502, 503, 504), { nil: undefined }),
    retryable: fc.option(fc.boolean(), { nil: undefined }),
    retryAfter: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
    retryAfterHeader: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
    reason: fc.option(fc.constantFrom('refused', 'reset', 'closed', 'dns', 'tls', 'proxy', 'other'), { nil: undefined }),
    phase: fc.option(fc.constantFrom('before-send', 'after-send'), { nil: undefined }),
  })
  .map(
    (f) =>
      new A2AClientError({
        kind: f.kind,
        message: 'random',
        ...(f.code !== undefined ? { code: f.code } : {}),
        ...(f.status !== undefined ? { status: f.status } : {}),
        data: { ...(f.retryable !== undefined ? { retryable: f.retryable } : {}), ...(f.retryAfter !== undefined ? { retryAfter: f.retryAfter } : {}) },
        headers: f.retryAfterHeader !== undefined ? { 'retry-after': String(f.retryAfterHeader) } : {},
        ...(f.reason !== undefined ? { reason: f.reason } : {}),
        ...(f.phase !== undefined ? { phase: f.phase } : {}),
      }),
  );

/** The rule for sends, written as simply as possible: safe, refused unprocessed, or asked for by the server. */
function sendMayRepeat(e: A2AClientError, ambiguousOptIn: boolean, readRetries: boolean): boolean {
  const hints = hintsOf(e);
  const remote = e.kind === 'http' || e.kind === 'json-rpc';
  if (remote && hints.retryable === false) return false;
  const code = e.kind === 'json-rpc' && e.code !== undefined ? e.code : e.status;
  const fatalCode = code !== undefined && !(code < 0 ? [-32603, -32006] : [408, 425, 429, 500, 502, 503, 504]).includes(code);
  const headerDelayOnly = hints.source?.startsWith('header:') === true;
  if (remote && (hints.retryable === true || (hints.retryAfterMs !== undefined && !(fatalCode && headerDelayOnly && e.kind === 'json-rpc')))) return true;
  // A certificate error or a proxy's refusal is configuration; a proxy's 5xx is a refused connection.
  if (e.kind === 'connection' && e.reason === 'tls' && e.phase === 'before-send') return false;
  if (e.kind === 'connection' && e.reason === 'proxy') return e.status !== undefined && e.status >= 500;
  // A bare refusal: the server says it did not process the request.
  if (e.kind === 'http' && (e.status === 429 || e.status === 503)) return true;
  const neverSent = e.kind === 'connect-timeout' || (e.kind === 'connection' && (e.phase === 'before-send' || (e.phase === undefined && (e.reason === 'refused' || e.reason === 'dns'))));
  if (neverSent) return true;
  // Anything else a read would retry may have reached the agent: only with the opt-in.
  return ambiguousOptIn && readRetries;
}

describe('classify, property: a send is repeated only when it never left or the server asked', () => {
  it('matches the reference rule for random failures; reads retry at least what sends do; health ignores the method', () => {
    fc.assert(
      fc.property(anyFailure, fc.boolean(), (error, optIn) => {
        const options = { ...DEFAULT_RETRY, ambiguous: optIn };
        const read = classify(error, { ...get, options });
        for (const method of ['sendMessage', 'sendStreamingMessage']) {
          const sent = classify(error, { method, idempotent: false, options });
          expect(sent.retryable).toBe(sendMayRepeat(error, optIn, read.retryable));
          if (sent.retryable) expect(read.retryable).toBe(true);
          expect(sent.countsAsFailure).toBe(read.countsAsFailure);
          expect(sent.delayMs).toBe(read.delayMs);
        }
        const other = classify(error, { ...create, options });
        if (other.retryable) expect(classify(error, { ...send, options: DEFAULT_RETRY }).retryable).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('transient and ambiguous: what may be repeated now may succeed; the method never changes transient; only non-idempotent methods are ambiguous, never on a refusal or before sending', () => {
    fc.assert(
      fc.property(anyFailure, fc.boolean(), (error, optIn) => {
        const options = { ...DEFAULT_RETRY, ambiguous: optIn };
        const read = classify(error, { ...get, options });
        expect(read.ambiguous).toBe(false);
        for (const ctx of [{ ...send, options }, { ...stream, options }, { ...create, options }, { ...get, options }]) {
          const c = classify(error, ctx);
          if (c.retryable) expect(c.transient).toBe(true);
          expect(c.transient).toBe(read.transient);
          if (c.ambiguous) expect(c.transient || error.kind === 'aborted').toBe(true);
          const refused = error.kind === 'http' && (error.status === 429 || error.status === 503);
          const beforeSend = (error.kind === 'connection' && error.phase === 'before-send') || error.kind === 'connect-timeout';
          if (refused || beforeSend) expect(c.ambiguous).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

type Judged = [name: string, error: A2AClientError, ctx: ClassifyContext, transient: boolean, ambiguous: boolean];

/** `transient` becomes the error's `retryable` ("repeating may succeed"); `ambiguous`: a repeat of the send could run it twice. */
const judged: Judged[] = [
  ['bare 503 on sendMessage: a refusal, not ambiguous', errors.http(503), send, true, false],
  ['bare 429 on sendMessage', errors.http(429), send, true, false],
  ['503 + Retry-After on sendMessage', errors.http(503, { 'retry-after': '2' }), send, true, false],
  ...([500, 502, 504].map((status): Judged => [`bare ${status} on sendMessage: may succeed, may have run`, errors.http(status), send, true, true])),
  ...([500, 502, 504].map((status): Judged => [`bare ${status} on getTask: may succeed, not ambiguous (a read)`, errors.http(status), get, true, false])),
  ['bare −32603 on sendStreamingMessage', errors.rpc(-32603), stream, true, true],
  ['bare −32006 on sendMessage', errors.rpc(-32006), send, true, true],
  ['−32603 retried on opt-in is still ambiguous', errors.rpc(-32603), sendAmbiguous, true, true],
  ['−32603 with data.retryable: false', errors.rpc(-32603, { retryable: false }), send, false, false],
  ['−32603 with data.retryable: true (the agent asked for the repeat)', errors.rpc(-32603, { retryable: true }), send, true, false],
  ['−32602 invalid params', errors.rpc(-32602), send, false, false],
  ['401 refused credential', errors.http(401, { 'www-authenticate': 'Bearer' }), send, false, false],
  ['401 with a retryable hint', errors.rpc(-32603, { retryable: true }).with({ status: 401 }), get, false, false],
  ['HTTP 400', errors.http(400), send, false, false],
  ['read-timeout on sendMessage', errors.readTimeout(), send, true, true],
  ['read-timeout on getTask', errors.readTimeout(), get, true, false],
  ['idle-timeout on sendStreamingMessage', errors.of('idle-timeout'), stream, true, true],
  ['reset after send on sendMessage', errors.reset(), send, true, true],
  ['reset after send on createTaskPushNotificationConfig', errors.reset(), create, true, true],
  ['refused (before send) on sendMessage', errors.refused(), send, true, false],
  ['connect-timeout on sendMessage', errors.of('connect-timeout'), send, true, false],
  ['invalid-response', errors.of('invalid-response'), send, false, false],
  ['unsupported', errors.of('unsupported'), send, false, false],
  ['card', errors.of('card'), get, false, false],
  ['aborted', errors.of('aborted'), send, false, false],
  ['aborted after sending a send', errors.of('aborted').with({ phase: 'after-send' }), send, false, true],
  ['deadline-exceeded', errors.of('deadline-exceeded'), get, true, false],
  ['deadline-exceeded that cut a send after sending', errors.of('deadline-exceeded').with({ phase: 'after-send' }), send, true, true],
  ['deadline-exceeded that cut a read after sending', errors.of('deadline-exceeded').with({ phase: 'after-send' }), get, true, false],
  ['circuit-open', errors.of('circuit-open'), send, true, false],
  ['budget-exhausted', errors.of('budget-exhausted'), send, true, false],
  ['bulkhead-rejected', errors.of('bulkhead-rejected'), send, true, false],
  ['insufficient-results', errors.of('insufficient-results'), get, false, false],
];

describe('classify: transient (the error\'s retryable) and ambiguous', () => {
  it.each(judged)('%s', (_name, error, ctx, transient, ambiguous) => {
    const c = classify(error, ctx);
    expect([c.transient, c.ambiguous]).toEqual([transient, ambiguous]);
  });
});
