import { describe, expect, it } from 'vitest';
import { parseProblem, parseRpcStatus } from '../../src/errors/parse-problem.js';
import { a2aNameForCode, httpStatusForCode } from '../../src/protocol/error-codes.js';

describe('parseProblem', () => {
  it('reads problem+json with agent extensions and keeps unknown members', () => {
    const p = parseProblem({ type: 'about:blank', title: 'Too Many Requests', status: 429, retry_after_ms: 1500, is_retriable: true, vendor: 'x' });
    expect(p).toMatchObject({ status: 429, retry_after_ms: 1500, is_retriable: true, vendor: 'x' });
  });
  it('drops a mistyped field instead of failing', () => {
    expect(parseProblem({ title: 'x', status: 'bad' })).toMatchObject({ title: 'x', status: undefined });
  });
  it('is undefined for non-problem bodies', () => {
    expect(parseProblem({ foo: 1 })).toBeUndefined();
    expect(parseProblem('text')).toBeUndefined();
  });
});

describe('parseRpcStatus', () => {
  it('reads google.rpc.Status', () => {
    const s = parseRpcStatus({ error: { code: 404, status: 'NOT_FOUND', message: 'Task not found', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }] } });
    expect(s).toMatchObject({ code: 404, status: 'NOT_FOUND', details: [{ reason: 'TASK_NOT_FOUND' }] });
  });
  it('does not mistake a JSON-RPC error for it', () => {
    expect(parseRpcStatus({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'x' } })).toBeUndefined();
  });
});

describe('error code table', () => {
  it('names A2A codes per version and maps HTTP status', () => {
    expect(a2aNameForCode(-32001)).toBe('TaskNotFound');
    expect(a2aNameForCode(-32007)).toBe('ExtendedAgentCardNotConfigured');
    expect(a2aNameForCode(-32007, '0.3')).toBe('AuthenticatedExtendedCardNotConfigured');
    expect(a2aNameForCode(-32009)).toBe('VersionNotSupported');
    expect(a2aNameForCode(-32099)).toBeUndefined();
    expect(httpStatusForCode(-32001)).toBe(404);
    expect(httpStatusForCode(-32006)).toBe(500);
    expect(httpStatusForCode(-32002)).toBe(400);
  });
});
