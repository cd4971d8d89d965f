/**
 * `mockAgent({ binding: 'GRPC' })`: the card over HTTP advertising the real loopback gRPC server,
 * `.handlers` serving only the card, errors as a gRPC agent sends them (status, ErrorInfo, RetryInfo,
 * pushback, the HTTP error's headers as trailers), stream gaps / idle stalls / drops, hangs the client
 * cancels, `close()` with calls in flight, and the error when the gRPC peers are not installed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { A2AClient, type AgentEvent, type ClientOptions } from 'a2a-resilient';
import { hang, httpError, jsonRpcError, mockAgent, stream, type MockAgent, type MockServer } from 'a2a-resilient/mocks';
import * as grpc from '@grpc/grpc-js';
import type { JsonValue } from '@bufbuild/protobuf';
import { grpcLoader } from '../../src/protocol/grpc/grpc-peers.js';
import { runtime } from '../../src/protocol/grpc/grpc-runtime.js';
import { uniqueName } from '../client/harness.js';
import { rejection } from '../helpers/rejection.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function serve(agent: MockAgent, options: ClientOptions = {}): Promise<{ server: MockServer; client: A2AClient }> {
  const server = await agent.listen();
  closers.push(server.close);
  const client = await A2AClient.connect(server.url, { circuitBreaker: false, ...options });
  closers.push(() => client.close());
  return { server, client };
}


const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };

describe('the card of a GRPC mock', () => {
  it.each([
    ['1.0', (target: string) => ({ supportedInterfaces: [{ url: target, protocolBinding: 'GRPC', protocolVersion: '1.0' }] })],
    ['0.3', (target: string) => ({ url: target, preferredTransport: 'GRPC', protocolVersion: '0.3.0' })],
  ] as const)('v%s: served over HTTP at url, advertising the gRPC server as host:port', async (version, expected) => {
    const agent = mockAgent({ name: uniqueName('grpc-card'), version, binding: 'GRPC' });
    const { server, client } = await serve(agent);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.grpcTarget).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(server.grpcTarget).not.toBe(server.url.slice('http://'.length));
    const card: unknown = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
    expect(card).toMatchObject(expected(server.grpcTarget ?? ''));
    expect(client.protocol).toEqual({ version, binding: 'GRPC', url: server.grpcTarget });
    // The HTTP server serves nothing but the card.
    expect((await fetch(server.url, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('.handlers serve only the card (msw), whose gRPC url names the msw host until listen()', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-msw'), version: '1.0', binding: 'GRPC' });
    const msw = setupServer(...agent.handlers);
    msw.listen({ onUnhandledRequest: 'bypass' });
    try {
      const card: unknown = await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json();
      expect(card).toMatchObject({ supportedInterfaces: [{ url: `${new URL(agent.url).hostname}:443`, protocolBinding: 'GRPC' }] });
      expect((await fetch(`${agent.url}/`, { method: 'POST', body: '{}' })).status).toBe(404);
    } finally {
      msw.close();
    }
  });
});

describe('errors as a gRPC agent sends them', () => {
  it('an HTTP 429 with Retry-After: RESOURCE_EXHAUSTED, RetryInfo, grpc-retry-pushback-ms, its headers as trailers', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-429'), version: '1.0', binding: 'GRPC' });
    agent.on('getTask', httpError(429, { retryAfter: 2, headers: { 'x-quota': 'daily' } }));
    const { client } = await serve(agent, { retry: false });
    const error = await rejection(client.getTask({ id: 't' }));
    expect(error).toMatchObject({ kind: 'http', status: 429, grpcStatus: 'RESOURCE_EXHAUSTED', retryAfterMs: 2_000 });
    expect(error.headers).toMatchObject({ 'grpc-retry-pushback-ms': '2000', 'x-quota': 'daily' });
    expect(error.rpcStatus?.details).toContainEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' });
  });

  it.each(['1.0', '0.3'] as const)('v%s: an A2A error is its status with an ErrorInfo reason (v0.3: the name prefixes the message)', async (version) => {
    const agent = mockAgent({ name: uniqueName('grpc-a2a'), version, binding: 'GRPC' });
    agent.on('sendMessage', jsonRpcError(-32004, 'no files here'));
    const { client } = await serve(agent, { retry: false });
    const error = await rejection(client.sendMessage(hi));
    expect(error).toMatchObject({ kind: 'http', status: 400, grpcStatus: 'FAILED_PRECONDITION', a2aName: 'UnsupportedOperation', details: { reason: 'UNSUPPORTED_OPERATION', domain: 'a2a-protocol.org' } });
    expect(error.rpcStatus?.message).toBe(version === '0.3' ? 'UnsupportedOperationError: no files here' : 'no files here');
  });

  it('a v1.0 mock refuses a call without a 1.x a2a-version, as the official server does (raw grpc-js call)', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-version'), version: '1.0', binding: 'GRPC' });
    const server = await agent.listen();
    closers.push(server.close);
    const codec = runtime.services['1.0'].methods.get('GetTask');
    if (codec === undefined) throw new Error('no GetTask');
    const raw = new grpc.Client(server.grpcTarget ?? '', grpc.credentials.createInsecure());
    closers.push(async () => raw.close());
    const error = await new Promise<grpc.ServiceError | null>((resolve) => {
      raw.makeUnaryRequest(codec.path, (j: JsonValue) => Buffer.from(codec.encodeRequest(j)), (b: Buffer) => b, { id: 't' }, new grpc.Metadata(), {}, (e) => resolve(e));
    });
    expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    const bin = error?.metadata.get('grpc-status-details-bin')[0];
    expect(bin instanceof Buffer ? runtime.decodeStatusDetails(bin) : undefined).toMatchObject({ details: [{ reason: 'VERSION_NOT_SUPPORTED' }] });
    expect(agent.calls).toHaveLength(0);
  });
});

describe('streams, hangs and close() on a GRPC mock', () => {
  it('events flow one message each with the configured gap', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-gap'), version: '1.0', binding: 'GRPC' });
    agent.reply(stream([{ status: 'working' }, { artifact: 'a' }, { status: 'completed' }], { gapMs: 150 }));
    const { client } = await serve(agent);
    const at: number[] = [];
    for await (const _event of client.sendStreamingMessage(hi)) at.push(performance.now());
    expect(at).toHaveLength(4);
    const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(40);
    expect((at.at(-1) ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(400);
  });

  it('idleAfter: the stream goes quiet, the client times out idle and resubscribes to the rest', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-idle'), version: '1.0', binding: 'GRPC' });
    agent.reply(stream([{ status: 'working' }, { artifact: 'done', lastChunk: true }, { status: 'completed' }], { idleAfter: 2 }));
    const reasons: unknown[] = [];
    const { client } = await serve(agent, { timeouts: { streamIdleMs: 200 }, onEvent: (e) => void (e.type === 'resubscribe' && reasons.push(e.reason)) });
    const events: AgentEvent[] = [];
    for await (const e of client.stream('hi')) events.push(e);
    expect(reasons).toEqual(['idle-timeout']);
    expect(events.at(-1)).toMatchObject({ done: true, state: 'completed' });
    expect(events.filter((e) => e.partial).map((e) => e.text ?? '').join('')).toBe('done');
    expect(agent.calls.map((c) => c.method)).toEqual(['sendStreamingMessage', 'subscribeToTask']);
  });

  it('dropAfter: the connection is destroyed mid-stream; the client resumes with every chunk once', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-drop'), version: '1.0', binding: 'GRPC' });
    agent.reply(stream([{ status: 'working' }, { artifact: 'one ', append: true }, { artifact: 'two', append: true, lastChunk: true }, { status: 'completed' }], { dropAfter: 2 }));
    const { client } = await serve(agent, { retry: { maxAttempts: 3, baseDelayMs: 10 } });
    const events: AgentEvent[] = [];
    for await (const e of client.stream('hi')) events.push(e);
    expect(events.filter((e) => e.partial).map((e) => e.text ?? '').join('')).toBe('one two');
    expect(events.at(-1)).toMatchObject({ done: true, state: 'completed' });
    expect(agent.callsOf('subscribeToTask')).toHaveLength(1);
  });

  it('hang(): the client deadline cancels the call and the scenario sees the abort', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-hang'), version: '1.0', binding: 'GRPC' });
    let seen: AbortSignal | undefined;
    agent.on('sendMessage', (ctx) => {
      seen = ctx.signal;
      return hang()(ctx);
    });
    const { client } = await serve(agent, { retry: false });
    const started = performance.now();
    const error = await rejection(client.sendMessage(hi, { timeouts: { totalMs: 300 } }));
    expect(error.kind).toBe('deadline-exceeded');
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    for (let i = 0; i < 100 && seen?.aborted !== true; i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen?.aborted).toBe(true);
  });

  it('close() ends a hanging call promptly: the client sees the connection drop after sending', async () => {
    const agent = mockAgent({ name: uniqueName('grpc-close'), version: '1.0', binding: 'GRPC' });
    agent.on('sendMessage', hang());
    const { server, client } = await serve(agent, { retry: false });
    const pending = rejection(client.sendMessage(hi));
    for (let i = 0; i < 100 && agent.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(agent.calls).toHaveLength(1);
    const started = performance.now();
    await server.close();
    const error = await pending;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ kind: 'connection', phase: 'after-send' });
  });
});

describe('the gRPC peers are optional for the mocks too', () => {
  it('listen() of a GRPC mock without them rejects naming what to install', async () => {
    const saved = grpcLoader.peers;
    grpcLoader.peers = ['@grpc/grpc-js-not-installed-for-this-test'];
    try {
      const agent = mockAgent({ name: uniqueName('grpc-peer'), version: '1.0', binding: 'GRPC' });
      const error: unknown = await agent.listen().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
      expect(String((error as Error).message)).toContain('npm install --save-dev @grpc/grpc-js @bufbuild/protobuf');
      expect(String((error as Error).message)).toContain('@grpc/grpc-js-not-installed-for-this-test');
    } finally {
      grpcLoader.peers = saved;
    }
  });
});
