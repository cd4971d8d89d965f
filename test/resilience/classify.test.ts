import { describe, expect, it } from 'vitest';
import type { A2AClientError } from '../../src/errors/a2a-client-error.js';
import { classify, type ClassifyContext } from '../../src/resilience/classify.js';
import { DEFAULT_RETRY } from '../../src/resilience/defaults.js';
import { errors } from './fixtures.js';

const send: ClassifyContext = { method: 'sendMessage', idempotent: false, options: DEFAULT_RETRY };
const get: ClassifyContext = { method: 'getTask', idempotent: true, options: DEFAULT_RETRY };
const create: ClassifyContext = { method: 'createTaskPushNotificationConfig', idempotent: false, options: DEFAULT_RETRY };
const sendNoAmbiguous: ClassifyContext = { ...send, options: { ...DEFAULT_RETRY, ambiguous: false } };

type Row = [name: string, error: A2AClientError, ctx: ClassifyContext, retryable: boolean, countsAsFailure: boolean, delayMs?: number];

const rows: Row[] = [
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
  ['400 + Retry-After (hint beats table)', errors.http(400, { 'retry-after': '1' }), send, true, false, 1000],
  ['RateLimit-Reset header on 429', errors.http(429, { 'ratelimit-reset': '3' }), send, true, true, 3000],
  // 3. code table — JSON-RPC
  ['−32603 internal', errors.rpc(-32603), send, true, true],
  ['−32006 invalid agent response', errors.rpc(-32006), send, true, true],
  ...([-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32007, -32008, -32009, -32000, -32050, -32099].map(
    (code): Row => [`${code} fatal`, errors.rpc(code), get, false, false],
  )),
  ['TaskNotFound never counts', errors.rpc(-32001, undefined, 'TaskNotFound'), get, false, false],
  // 3. code table — HTTP
  ...([408, 425, 429, 500, 502, 503, 504].map((status): Row => [`HTTP ${status} retryable`, errors.http(status), send, true, status !== 425])),
  ...([400, 401, 403, 404, 405, 409, 422].map((status): Row => [`HTTP ${status} fatal`, errors.http(status), get, false, false])),
  ['HTTP 501 fatal but a health failure', errors.http(501), get, false, true],
  // 4. transport kinds
  ['connection refused (before send) on sendMessage', errors.refused(), send, true, true],
  ['connection refused on a non-idempotent method', errors.refused(), create, true, true],
  ['dns', errors.of('connection').with({ reason: 'dns' }), create, true, true],
  ['connect-timeout', errors.of('connect-timeout'), create, true, true],
  ['read-timeout on idempotent', errors.readTimeout(), get, true, true],
  ['read-timeout on sendMessage (same messageId)', errors.readTimeout(), send, true, true],
  ['read-timeout on sendMessage with ambiguous false', errors.readTimeout(), sendNoAmbiguous, false, true],
  ['read-timeout on a non-idempotent method', errors.readTimeout(), create, false, true],
  ['idle-timeout on sendStreamingMessage', errors.of('idle-timeout'), { ...send, method: 'sendStreamingMessage' }, true, true],
  ['reset after send on idempotent', errors.reset(), get, true, true],
  ['reset after send on sendMessage, ambiguous false', errors.reset(), sendNoAmbiguous, false, true],
  ['reset after send on a non-idempotent method', errors.reset(), create, false, true],
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
