/**
 * google.rpc typed details (ErrorInfo, RetryInfo, BadRequest): the parser on its own (examples and
 * properties), then end to end through a real loopback agent on both v1.0 bindings.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, responseErrorFromClientError, type ResilienceEvent } from '../../src/index.js';
import { parseErrorDetails } from '../../src/errors/rpc-details.js';
import { errorInfo, failFirst, jsonRpcError, mockAgent, replyText, retryInfo, type MockServer } from '../../mocks/index.js';

const TYPE = 'type.googleapis.com/google.rpc.';
const badRequest = (...violations: Array<{ field: string; description: string }>) => ({ '@type': `${TYPE}BadRequest`, fieldViolations: violations });

describe('parseErrorDetails', () => {
  it('reads ErrorInfo, RetryInfo and BadRequest; the first of each type wins; other types are skipped', () => {
    const details = parseErrorDetails([
      { '@type': `${TYPE}DebugInfo`, detail: 'stack' },
      { '@type': `${TYPE}ErrorInfo`, reason: 'QUOTA_EXCEEDED', domain: 'billing.example', metadata: { limit: '10', bad: 3 } },
      { '@type': `${TYPE}ErrorInfo`, reason: 'SECOND' },
      { '@type': `${TYPE}RetryInfo`, retryDelay: '2.5s' },
      badRequest({ field: 'message.parts[0].text', description: 'empty' }, { field: 'metadata.x', description: 'unknown key' }),
    ]);
    expect(details).toEqual({
      reason: 'QUOTA_EXCEEDED',
      domain: 'billing.example',
      metadata: { limit: '10' },
      retryDelayMs: 2500,
      fieldViolations: [
        { field: 'message.parts[0].text', description: 'empty' },
        { field: 'metadata.x', description: 'unknown key' },
      ],
    });
  });

  it('accepts the short type names and is undefined when nothing usable is there', () => {
    expect(parseErrorDetails([{ '@type': 'google.rpc.RetryInfo', retryDelay: '1s' }])).toEqual({ retryDelayMs: 1000 });
    expect(parseErrorDetails({ '@type': `${TYPE}RetryInfo`, retryDelay: '1s' })).toBeUndefined();
    expect(parseErrorDetails([{ '@type': `${TYPE}RetryInfo`, retryDelay: 'soon' }, { '@type': `${TYPE}ErrorInfo` }, badRequest()])).toBeUndefined();
    expect(parseErrorDetails(null)).toBeUndefined();
  });

  it('keeps a metadata key named __proto__ as a plain key', () => {
    const details = parseErrorDetails([{ '@type': `${TYPE}ErrorInfo`, reason: 'R', metadata: JSON.parse('{"__proto__":"x"}') as unknown }]);
    expect(Object.getPrototypeOf(details?.metadata)).toBe(Object.prototype);
    expect(Object.keys(details?.metadata ?? {})).toEqual(['__proto__']);
  });

  it('property: never throws on any JSON, and what it returns is well formed', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(fc.record({ '@type': fc.constantFrom(`${TYPE}ErrorInfo`, `${TYPE}RetryInfo`, `${TYPE}BadRequest`, 'x'), reason: fc.jsonValue(), domain: fc.jsonValue(), metadata: fc.jsonValue(), retryDelay: fc.jsonValue(), fieldViolations: fc.jsonValue() }, { requiredKeys: ['@type'] }))), (value) => {
        const details = parseErrorDetails(value);
        if (details === undefined) return;
        if (details.reason !== undefined) expect(typeof details.reason).toBe('string');
        if (details.retryDelayMs !== undefined) expect(details.retryDelayMs).toBeGreaterThanOrEqual(0);
        for (const v of Object.values(details.metadata ?? {})) expect(typeof v).toBe('string');
        for (const v of details.fieldViolations ?? []) expect(typeof v.field).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('property: well-formed details read back to what was sent, in any order among junk', () => {
    const word = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(
        word,
        fc.option(fc.dictionary(word, fc.string(), { minKeys: 1, maxKeys: 5 }), { nil: undefined }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.array(fc.record({ field: word, description: fc.string() }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.jsonValue(), { maxLength: 4 }),
        (reason, metadata, ms, violations, junk) => {
          const items = [
            ...junk,
            { '@type': `${TYPE}ErrorInfo`, reason, ...(metadata === undefined ? {} : { metadata }) },
            { '@type': `${TYPE}RetryInfo`, retryDelay: `${ms / 1000}s` },
            badRequest(...violations),
          ];
          const details = parseErrorDetails(items);
          expect(details?.reason).toBe(reason);
          expect(details?.metadata).toEqual(metadata);
          expect(details?.retryDelayMs).toBe(ms);
          expect(details?.fieldViolations).toEqual(violations);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('google.rpc details from a v1.0 %s agent (loopback)', (binding) => {
  const servers: MockServer[] = [];
  const clients: A2AClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const serve = async (configure: (agent: ReturnType<typeof mockAgent>) => void, events?: ResilienceEvent[]): Promise<A2AClient> => {
    const agent = mockAgent({ name: `details-${binding === 'JSONRPC' ? 'rpc' : 'rest'}-${Math.random().toString(36).slice(2, 8)}`, version: '1.0', binding });
    configure(agent);
    const server = await agent.listen();
    servers.push(server);
    const client = await A2AClient.connect(server.url, { onEvent: (e) => events?.push(e), retry: { baseDelayMs: 1 } });
    clients.push(client);
    return client;
  };
  const send = (client: A2AClient) => client.sendMessage({ message: { parts: [{ kind: 'text', text: 'hi' }] } });

  it('ErrorInfo and BadRequest land in error.details, the A2A name and the ResponseError (param, traceId)', async () => {
    const client = await serve((a) =>
      a.on('sendMessage', jsonRpcError(-32602, 'invalid params', [errorInfo('INVALID_FIELD', { trace_id: 'trace-42' }), badRequest({ field: 'message.parts', description: 'must not be empty' })])),
    );
    const error = await send(client).then(() => undefined, (e: unknown) => e);
    if (!isA2AClientError(error)) throw new Error('expected an A2AClientError');
    expect(error.details).toMatchObject({ reason: 'INVALID_FIELD', domain: 'a2a-protocol.org', metadata: { trace_id: 'trace-42' }, fieldViolations: [{ field: 'message.parts', description: 'must not be empty' }] });
    expect(error.retryable).toBe(false);
    expect(responseErrorFromClientError(error)).toMatchObject({ param: 'message.parts', traceId: 'trace-42', message: expect.stringContaining('INVALID_FIELD') });
  });

  it('a server-specific code whose ErrorInfo reason is TASK_NOT_FOUND is named TaskNotFound', async () => {
    const client = await serve((a) => a.on('getTask', jsonRpcError(-32099, 'gone', [errorInfo('TASK_NOT_FOUND')])));
    const error = await client.getTask({ id: 't-1' }).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && error.a2aName).toBe('TaskNotFound');
  });

  it('RetryInfo asks for a retry after its delay, even for a send', async () => {
    const events: ResilienceEvent[] = [];
    const client = await serve((a) => a.on('sendMessage', failFirst(1, jsonRpcError(-32000, 'overloaded', [retryInfo(0.05)]), replyText('ok'))), events);
    const started = performance.now();
    const result = await send(client);
    expect(result.kind).toBe('message');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && [e.reason, e.delayMs])).toEqual([['hint:delay(retry-info)', 50]]);
  });
});
