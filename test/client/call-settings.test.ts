/**
 * Timeouts and limits given as options: a field passed through as `undefined` is no override (the
 * client's or the default value stays — it never removes a deadline), and a value that is not a
 * number ≥ 0 is refused as `unsupported` naming the field — a rejected call or a failing first read,
 * never a synchronous throw from a method that returns a promise or a stream. Real loopback server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type Timeouts } from '../../src/index.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { rejection } from '../resilience/fixtures.js';
import { uniqueName } from './harness.js';

let server: FaultServer;
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server?.close();
});

/** A server whose agent takes every request and never answers; the card is served normally. */
async function silentAgent(): Promise<string> {
  server = await startFaultServer();
  const name = uniqueName('settings');
  server.route('/.well-known/agent-card.json', (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name, supportedInterfaces: [{ url: `${server.url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: { streaming: true } }));
  });
  server.route('/rpc', (req) => {
    req.resume();
  });
  return server.url;
}

const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };
const unset = (over: Partial<Record<keyof Timeouts, unknown>>): Partial<Timeouts> => over as Partial<Timeouts>;

describe('timeouts passed through as undefined keep the value below them', () => {
  it('a per-call totalMs: undefined keeps the client deadline; a client readMs: undefined keeps the default', async () => {
    const url = await silentAgent();
    const client = await A2AClient.connect(url, { timeouts: unset({ totalMs: 300, readMs: undefined }), retry: false, circuitBreaker: false });
    clients.push(client);
    expect(client.timeouts.readMs).toBe(60_000);
    const t0 = performance.now();
    const error = await rejection(client.sendMessage(hi, { timeouts: unset({ totalMs: undefined }) }));
    expect(error.kind).toBe('deadline-exceeded');
    expect(performance.now() - t0).toBeLessThan(3_000);
  });

  it('connect with call.timeouts.totalMs: undefined is still bounded by the client totalMs', async () => {
    server = await startFaultServer();
    server.route('/.well-known/agent-card.json', (req) => {
      req.resume();
    });
    const error = await rejection(A2AClient.connect(server.url, { timeouts: { totalMs: 300 }, retry: false }, { timeouts: unset({ totalMs: undefined }) }));
    expect(error.kind).toBe('deadline-exceeded');
  });
});

describe('a timeout that is not a number ≥ 0 is refused, naming the field', () => {
  it.each([Number.NaN, -1, '500'])('client totalMs %j: the constructor throws unsupported', async (value) => {
    const url = await silentAgent();
    const error = await rejection(A2AClient.connect(url, { timeouts: unset({ totalMs: value }) }));
    expect([error.kind, error.field]).toEqual(['unsupported', 'timeouts.totalMs']);
  });

  it('per call: sendMessage rejects, stream() fails its first read, nothing is sent', async () => {
    const url = await silentAgent();
    const client = await A2AClient.connect(url, { retry: false });
    clients.push(client);
    const bad = { timeouts: unset({ readMs: Number.NaN }) };
    let returned: Promise<unknown> | undefined;
    expect(() => {
      returned = client.sendMessage(hi, bad);
    }).not.toThrow();
    const error = await rejection(returned as Promise<unknown>);
    expect([error.kind, error.field]).toEqual(['unsupported', 'timeouts.readMs']);
    let thrown: unknown;
    try {
      for await (const _event of client.sendStreamingMessage(hi, bad)) void _event;
    } catch (e) {
      thrown = e;
    }
    expect(isA2AClientError(thrown) && [thrown.kind, thrown.field]).toEqual(['unsupported', 'timeouts.readMs']);
    expect(server.acceptedSockets).toBe(1);
  });
});
