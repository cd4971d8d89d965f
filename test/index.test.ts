// The public surface: the names of the stable contract exist, and their types are what callers rely on.
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../src/index.js';
import {
  A2AClient,
  A2AClientError,
  ConverterRegistry,
  defaultConverter,
  fanOut,
  isTerminalError,
  responseErrorFromMetadata,
  wrapDownstreamError,
  type A2AErrorKind,
  type AgentEvent,
  type CallOptions,
  type ClientOptions,
  type EventConverter,
  type ResponseError,
  type SendResult,
  type StreamEvent,
} from '../src/index.js';
import * as mocks from '../mocks/index.js';

describe('public API', () => {
  it('exports every name of the stable contract', () => {
    for (const name of [
      'A2AClient',
      'A2AClientError',
      'isTerminalError',
      'ConverterRegistry',
      'defaultConverter',
      'responseErrorFromMetadata',
      'fanOut',
      'wrapDownstreamError',
    ]) {
      expect(api).toHaveProperty(name);
    }
    expect(mocks).toHaveProperty('mockAgent');
  });

  it('types the protocol-level methods', () => {
    expectTypeOf(A2AClient.connect).returns.resolves.toEqualTypeOf<A2AClient>();
    expectTypeOf<A2AClient['sendMessage']>().returns.resolves.toEqualTypeOf<SendResult>();
    expectTypeOf<ReturnType<A2AClient['sendStreamingMessage']>>().toEqualTypeOf<AsyncIterable<StreamEvent>>();
    expectTypeOf<A2AClient['invoke']>().returns.resolves.toEqualTypeOf<AgentEvent[]>();
    expectTypeOf<ReturnType<A2AClient['stream']>>().toEqualTypeOf<AsyncIterable<AgentEvent>>();
    expectTypeOf<CallOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<ClientOptions['protocol']>().toEqualTypeOf<{ version?: '1.0' | '0.3'; binding?: 'JSONRPC' | 'HTTP+JSON' | 'GRPC' } | undefined>();
  });

  it('types errors and events for narrowing', () => {
    expectTypeOf<A2AClientError['kind']>().toEqualTypeOf<A2AErrorKind>();
    expectTypeOf<ResponseError['code']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ResponseError['cause']>().toEqualTypeOf<A2AClientError | undefined>();
    const event = {} as AgentEvent;
    if (isTerminalError(event)) expectTypeOf(event.error).toEqualTypeOf<ResponseError>();
    expectTypeOf(responseErrorFromMetadata).returns.toEqualTypeOf<ResponseError | undefined>();
    expectTypeOf(defaultConverter).toMatchTypeOf<EventConverter>();
    expectTypeOf(new ConverterRegistry().register).returns.toEqualTypeOf<ConverterRegistry>();
    expectTypeOf(wrapDownstreamError).returns.toHaveProperty('code').toEqualTypeOf<number>();
    expectTypeOf(fanOut).returns.resolves.toHaveProperty('skipped');
  });

  it('types the failure fields a caller branches on: booleans, one code rule, the source, fanOut attribution', () => {
    expectTypeOf<ResponseError['source']>().toEqualTypeOf<'agent' | 'path'>();
    expectTypeOf<ResponseError['retryable']>().toEqualTypeOf<boolean>();
    expectTypeOf<ResponseError['ambiguous']>().toEqualTypeOf<boolean>();
    expectTypeOf<A2AClientError['retryable']>().toEqualTypeOf<boolean>();
    expectTypeOf<A2AClientError['ambiguous']>().toEqualTypeOf<boolean>();
    expectTypeOf<A2AClientError['code']>().toEqualTypeOf<number | undefined>();
    type Entry = Awaited<ReturnType<typeof fanOut>>['failed'][number];
    expectTypeOf<Entry['label']>().toEqualTypeOf<string>();
    expectTypeOf<Entry['index']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<A2AClientError['failures']>[number]>().toEqualTypeOf<Entry>();
  });

  it('A2AClientError is recognised across copies by its brand, and serialises without its cause', () => {
    const error = new A2AClientError({ kind: 'http', message: 'HTTP 503', status: 503, cause: new Error('secret stack') });
    expect(api.isA2AClientError(error)).toBe(true);
    expect(api.isA2AClientError(new Error('x'))).toBe(false);
    expect(api.isA2AClientError({ ...error })).toBe(false);
    expect(error.toJSON()).toEqual({ name: 'A2AClientError', kind: 'http', message: 'HTTP 503', status: 503, retryable: false, ambiguous: false });
    expect(error.cause).toBeInstanceOf(Error);
  });
});
