import { describe, expect, it } from 'vitest';
import { A2AClientError, unwrapDownstreamError, wrapDownstreamError, type ResponseError } from '../../src/index.js';

describe('wrapDownstreamError', () => {
  const billingFailure: ResponseError = { type: 'flow_error', source: 'agent', message: 'invoice not found', code: '40401', retryable: false, ambiguous: false, traceId: 't-1' };

  it('builds a -32603 JSON-RPC error naming the downstream agent, with the chain in data', () => {
    const wrapped = wrapDownstreamError({ downstreamAgent: 'billing', currentAgent: 'planner', error: billingFailure });
    expect(wrapped).toEqual({
      code: -32603,
      message: 'downstream agent "billing" failed: invoice not found',
      data: {
        currentAgent: 'planner',
        downstreamAgent: 'billing',
        downstreamError: { type: 'flow_error', source: 'agent', message: 'invoice not found', code: '40401', retryable: false, ambiguous: false, traceId: 't-1' },
        retryable: false,
      },
    });
  });

  it('carries retryable and retryAfterMs from the downstream error', () => {
    const wrapped = wrapDownstreamError({
      downstreamAgent: 'search',
      currentAgent: 'planner',
      error: { type: 'http_error', source: 'path', message: 'busy', code: '503', retryable: true, ambiguous: false, retryAfterMs: 2000 },
    });
    expect(wrapped.data.retryable).toBe(true);
    expect(wrapped.data.downstreamError.retryAfterMs).toBe(2000);
  });

  it('keeps the full chain when the downstream error was itself wrapped, and unwraps it back', () => {
    const inner = wrapDownstreamError({ downstreamAgent: 'billing', currentAgent: 'ledger', error: billingFailure });
    // ledger returned `inner` to planner, whose client saw it as a json-rpc A2AClientError.
    const seenByPlanner = new A2AClientError({ kind: 'json-rpc', message: inner.message, code: inner.code, data: inner.data });
    const outer = wrapDownstreamError({ downstreamAgent: 'ledger', currentAgent: 'planner', error: seenByPlanner });
    expect(outer.data.downstreamError.data).toEqual(inner.data);

    const chain = unwrapDownstreamError(outer);
    expect(chain.map((l) => [l.reportedBy, l.agent, l.error.code])).toEqual([
      ['planner', 'ledger', '-32603'],
      ['ledger', 'billing', '40401'],
    ]);
    expect(chain[1]?.error).toEqual({ type: 'flow_error', source: 'agent', message: 'invoice not found', code: '40401', retryable: false, ambiguous: false, traceId: 't-1' });
    expect(unwrapDownstreamError(new A2AClientError({ kind: 'json-rpc', message: 'x', data: outer.data }))).toEqual(chain);
  });

  it('unwraps nothing from values that are not a chain, without throwing', () => {
    expect(unwrapDownstreamError(undefined)).toEqual([]);
    expect(unwrapDownstreamError({ code: -32603, message: 'x', data: { retryable: true } })).toEqual([]);
    expect(unwrapDownstreamError({ currentAgent: 1, downstreamAgent: 'a', downstreamError: {} })).toEqual([]);
  });
});
