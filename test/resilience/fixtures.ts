import { A2AClientError } from '../../src/errors/a2a-client-error.js';
import type { ProblemDetails } from '../../src/errors/problem.js';

/** Real errors as the transport and bindings build them. */
export const errors = {
  http: (status: number, headers: Record<string, string> = {}, problem?: ProblemDetails) =>
    new A2AClientError({ kind: 'http', message: `HTTP ${status}`, status, headers, ...(problem ? { problem } : {}) }),
  rpc: (code: number, data?: unknown, a2aName?: string) =>
    new A2AClientError({ kind: 'json-rpc', message: `JSON-RPC ${code}`, code, data, ...(a2aName ? { a2aName } : {}) }),
  refused: () => new A2AClientError({ kind: 'connection', message: 'refused', reason: 'refused', phase: 'before-send' }),
  reset: () => new A2AClientError({ kind: 'connection', message: 'reset', reason: 'reset', phase: 'after-send' }),
  readTimeout: () => new A2AClientError({ kind: 'read-timeout', message: 'read timeout', phase: 'after-send' }),
  of: (kind: A2AClientError['kind']) => new A2AClientError({ kind, message: kind }),
};

/** An attempt function that throws the given errors in turn, then resolves with `value`. */
export function failThenSucceed<T>(failures: readonly A2AClientError[], value: T) {
  let calls = 0;
  const fn = async (): Promise<T> => {
    const failure = failures[calls++];
    if (failure) throw failure;
    return value;
  };
  return { fn, calls: () => calls };
}

let seq = 0;
/** A fresh agent key, so tests never share a process-wide breaker or budget. */
export function agentKey(): string {
  seq++;
  return `http://127.0.0.1:${40000 + seq}`;
}

export { rejection } from '../helpers/rejection.js';
