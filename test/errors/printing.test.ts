/**
 * An A2AClientError prints like an error: its own class name, its message and stack, then only the
 * fields that are set (`attempts` only when there are some), then its `cause` — never a column of
 * `undefined`s. `retryable` and `ambiguous` are always booleans. (The name as bundled is checked on
 * dist/ by test/package/exported-names.test.ts.)
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { A2AClientError, responseErrorFromClientError } from '../../src/index.js';

const timeout = new A2AClientError({ kind: 'read-timeout', message: 'no answer within 50 ms', agent: 'billing', method: 'getTask', retryable: true, phase: 'after-send' });

describe('A2AClientError as printed', () => {
  it('names its class and keeps message, kind, code and cause; no field reads undefined', () => {
    const cause = new TypeError('fetch failed');
    const error = new A2AClientError({ kind: 'json-rpc', message: 'Internal error', code: -32603, agent: 'billing', cause });
    const printed = inspect(error);
    expect(printed).toMatch(/^A2AClientError: Internal error\n\s+at /);
    expect(printed).not.toMatch(/_A2AClientError|undefined/);
    expect(printed).toContain("kind: 'json-rpc'");
    expect(printed).toContain('code: -32603');
    expect(printed).toContain("agent: 'billing'");
    expect(printed).toContain('retryable: false');
    expect(printed).toContain('ambiguous: false');
    expect(printed).toMatch(/\[cause\]: TypeError: fetch failed/);
    // No attempts: not shown, yet still there to read.
    expect(printed).not.toContain('attempts');
    expect(error.attempts).toEqual([]);
  });

  it('has as own fields only the ones that are set', () => {
    const error = new A2AClientError({ kind: 'http', message: 'HTTP 503', status: 503, retryAfterMs: 2_000, agent: undefined });
    expect(Object.keys(error).sort()).toEqual(['ambiguous', 'kind', 'name', 'retryAfterMs', 'retryable', 'status']);
    expect([error.agent, error.code, error.problem]).toEqual([undefined, undefined, undefined]);
    expect(error.name).toBe('A2AClientError');
  });

  it('shows the attempts when there are some, each printed as an error', () => {
    const error = new A2AClientError({ kind: 'deadline-exceeded', message: 'deadline of 200 ms exceeded', attempts: [timeout, timeout] });
    const printed = inspect(error);
    expect(printed).toContain('attempts: [');
    expect(printed.match(/A2AClientError: no answer within 50 ms/g)).toHaveLength(2);
    expect(printed).not.toContain('undefined');
  });

  it('prints the same inside another object, in a console.log of a result', () => {
    const printed = inspect({ failed: [{ agent: 'billing', error: timeout }] }, { depth: 4 });
    expect(printed).toContain("A2AClientError: no answer within 50 ms");
    expect(printed).toContain("kind: 'read-timeout'");
    expect(printed).not.toContain('undefined');
  });

  it('a copy made by with() keeps the stack and prints only its set fields', () => {
    const copy = timeout.with({ retryAfterMs: 100 });
    expect(copy.stack).toBe(timeout.stack);
    expect(Object.keys(copy)).toContain('retryAfterMs');
    expect(inspect(copy)).not.toContain('undefined');
  });

  it('retryable and ambiguous are booleans on the error and on its ResponseError, whatever it was built from', () => {
    const bare = new A2AClientError({ kind: 'connection', message: 'refused' });
    expect([bare.retryable, bare.ambiguous]).toEqual([false, false]);
    expect(responseErrorFromClientError(bare)).toMatchObject({ source: 'path', retryable: false, ambiguous: false, code: 'connection' });
    expect(bare.toJSON()).toMatchObject({ retryable: false, ambiguous: false });
  });
});
