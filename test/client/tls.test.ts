/**
 * Mutual TLS and private CAs against real `https` loopback servers, with certificates generated at
 * test time: a private CA through `tls.ca` (card, unary, stream), a client certificate (plain and
 * with an encrypted key), `servername`, `rejectUnauthorized: false`; and every certificate error —
 * client certificate missing or from another CA, server certificate from an unknown CA or for
 * another name — fails as kind `connection`, reason `tls`, `before-send`, after exactly one handshake
 * with `maxAttempts: 5`, and leaves the agent's circuit breaker closed. A handshake cut by a TCP reset
 * is still a retryable `reset`. Handshakes are counted on the server.
 */
import { createServer as createHttpsServer, type Server, type ServerOptions } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError, type ClientOptions } from '../../src/index.js';
import { gatedAgent, type GatedAgent } from '../helpers/gated-agent.js';
import { generateTestCerts, type TestCerts } from '../helpers/test-certs.js';

let certs: TestCerts;
beforeAll(() => {
  certs = generateTestCerts();
});
afterAll(() => certs.cleanup());

/** An https agent on 127.0.0.1 that counts handshakes: completed ones and refused ones. */
interface TlsAgent {
  url: string;
  agent: GatedAgent;
  /** `secureConnection` + `tlsClientError` events: every handshake the server saw, good or bad. */
  readonly handshakes: number;
  readonly completed: number;
  close(): Promise<void>;
}

let names = 0;
async function startTlsAgent(options: ServerOptions): Promise<TlsAgent> {
  const agent = gatedAgent(`tls-agent-${++names}`);
  agent.release();
  const server: Server = createHttpsServer(options, agent.listener);
  let completed = 0;
  let refused = 0;
  server.on('secureConnection', () => completed++);
  server.on('tlsClientError', () => refused++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent.base = `${url}/`;
  return {
    url,
    agent,
    get handshakes() {
      return completed + refused;
    },
    get completed() {
      return completed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const FIVE = { retry: { maxAttempts: 5, baseDelayMs: 5, maxDelayMs: 10 } } satisfies ClientOptions;

async function failure(run: () => Promise<unknown>): Promise<A2AClientError> {
  try {
    await run();
  } catch (error) {
    if (isA2AClientError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

/** Lets the server see the end of a refused handshake before counting. */
const settle = (ms = 50) => new Promise((resolve) => setTimeout(resolve, ms));

function expectCertificateError(error: A2AClientError): void {
  expect(error.kind).toBe('connection');
  expect(error.reason).toBe('tls');
  expect(error.phase).toBe('before-send');
  expect(error.retryable).toBe(false);
}

async function streamText(client: A2AClient): Promise<string[]> {
  const kinds: string[] = [];
  for await (const ev of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } })) kinds.push(ev.kind);
  return kinds;
}

describe('mutual TLS (server requires a client certificate from its CA)', () => {
  let mtls: TlsAgent;
  beforeAll(async () => {
    mtls = await startTlsAgent({ key: certs.serverKey, cert: certs.serverCert, ca: certs.ca, requestCert: true, rejectUnauthorized: true });
  });
  afterAll(() => mtls.close());

  it('connects with the private CA and a client certificate: card, unary call and stream', async () => {
    const client = await A2AClient.connect(mtls.url, { tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } });
    try {
      const answer = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } });
      expect(answer.kind).toBe('message');
      expect(await streamText(client)).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
      expect(mtls.agent.calls).toEqual(expect.arrayContaining(['GET /.well-known/agent-card.json', 'SendMessage', 'SendStreamingMessage']));
    } finally {
      await client.close();
    }
  });

  it('takes an encrypted client key with its passphrase (ca as an array)', async () => {
    const client = await A2AClient.connect(mtls.url, { tls: { ca: [certs.ca], cert: certs.clientCert, key: Buffer.from(certs.clientKeyEncrypted), passphrase: certs.passphrase } });
    expect((await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } })).kind).toBe('message');
    await client.close();
  });

  it.each([
    ['no client certificate', () => ({ ca: certs.ca })],
    ['a client certificate from another CA', () => ({ ca: certs.ca, cert: certs.otherClientCert, key: certs.otherClientKey })],
  ])('%s: connection/tls before-send after one handshake, with maxAttempts 5 (card fetch)', async (_name, tls) => {
    const before = mtls.handshakes;
    const error = await failure(() => A2AClient.connect(mtls.url, { ...FIVE, tls: tls() }));
    expectCertificateError(error);
    await settle();
    expect(mtls.handshakes - before).toBe(1);
    expect(error.attempts).toHaveLength(1);
  });

  it.each([
    ['no client certificate', () => ({ ca: certs.ca })],
    ['a client certificate from another CA', () => ({ ca: certs.ca, cert: certs.otherClientCert, key: certs.otherClientKey })],
  ])('%s: calls fail once each (getTask, sendMessage) and never open the breaker', async (_name, tls) => {
    const good = await A2AClient.connect(mtls.url, { tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } });
    const bad = new A2AClient(good.card.raw, { ...FIVE, tls: tls(), circuitBreaker: { consecutiveFailures: 1 } });
    try {
      for (const call of [() => bad.getTask({ id: 'task-1' }), () => bad.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'x' }] } })]) {
        const before = mtls.handshakes;
        expectCertificateError(await failure(call));
        await settle();
        expect(mtls.handshakes - before).toBe(1);
      }
      // The breaker of the agent's origin (shared in the process) stayed closed: a well-configured client goes on.
      expect((await good.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ok' }] } })).kind).toBe('message');
    } finally {
      await bad.close();
      await good.close();
    }
  });
});

describe('server certificates', () => {
  let plain: TlsAgent;
  let named: TlsAgent;
  beforeAll(async () => {
    plain = await startTlsAgent({ key: certs.serverKey, cert: certs.serverCert });
    named = await startTlsAgent({ key: certs.namedKey, cert: certs.namedCert });
  });
  afterAll(async () => {
    await plain.close();
    await named.close();
  });

  it('a server certificate from a CA the client was not told about: connection/tls, one handshake', async () => {
    const before = plain.handshakes;
    const error = await failure(() => A2AClient.connect(plain.url, FIVE));
    expectCertificateError(error);
    await settle();
    expect(plain.handshakes - before).toBe(1);
    expect(plain.completed).toBe(0);
  });

  it('a certificate for another name fails (ERR_TLS_CERT_ALTNAME_INVALID) unless servername names it', async () => {
    const before = named.handshakes;
    const error = await failure(() => A2AClient.connect(named.url, { ...FIVE, tls: { ca: certs.ca } }));
    expectCertificateError(error);
    expect(error.message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    await settle();
    expect(named.handshakes - before).toBe(1);
    const client = await A2AClient.connect(named.url, { tls: { ca: certs.ca, servername: 'agent.test' } });
    expect((await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } })).kind).toBe('message');
    expect(await streamText(client)).toHaveLength(4);
    await client.close();
  });

  it('rejectUnauthorized: false accepts the unknown CA (tests only)', async () => {
    const client = await A2AClient.connect(plain.url, { tls: { rejectUnauthorized: false } });
    expect((await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } })).kind).toBe('message');
    await client.close();
  });
});

describe('a handshake cut by a TCP reset', () => {
  it('is reason reset, before-send, and retried', async () => {
    let accepted = 0;
    const server = createNetServer((socket: Socket) => {
      accepted++;
      socket.once('data', () => socket.resetAndDestroy());
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const error = await failure(() => A2AClient.connect(url, { retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 }, tls: { ca: certs.ca } }));
      expect(error.kind).toBe('connection');
      expect(error.reason).toBe('reset');
      expect(error.phase).toBe('before-send');
      expect(accepted).toBe(3);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('configuration the platform cannot honour', () => {
  it('tls or proxy with a custom fetch, or with a dispatcher, is unsupported at construction', async () => {
    const card = { name: 'x', version: '1', description: 'x', supportedInterfaces: [{ url: 'http://127.0.0.1:1/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] };
    const { Agent } = await import('undici');
    const dispatcher = new Agent();
    for (const options of [{ fetch: 'global', tls: { ca: 'x' } }, { fetch: globalThis.fetch, proxy: 'env' }, { dispatcher, tls: {} }, { dispatcher, proxy: 'http://127.0.0.1:9' }] as ClientOptions[]) {
      let error: unknown;
      try {
        new A2AClient(card, options);
      } catch (e) {
        error = e;
      }
      expect(isA2AClientError(error) && error.kind).toBe('unsupported');
      expect(isA2AClientError(error) && error.field).toBe(options.proxy !== undefined ? 'proxy' : 'tls');
      const viaConnect = await failure(() => A2AClient.connect('http://127.0.0.1:1', options));
      expect(viaConnect.kind).toBe('unsupported');
    }
    await dispatcher.close();
  });
});

describe('mutual TLS through a proxy tunnel', () => {
  it('the client certificate and private CA apply to the agent behind the tunnel; a refusal is still tls, once', async () => {
    const { startHttpProxy } = await import('../helpers/http-proxy.js');
    const mtls = await startTlsAgent({ key: certs.serverKey, cert: certs.serverCert, ca: certs.ca, requestCert: true, rejectUnauthorized: true });
    const proxy = await startHttpProxy();
    try {
      const client = await A2AClient.connect(mtls.url, { proxy: proxy.url, tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } });
      expect(await streamText(client)).toHaveLength(4);
      await client.close();
      expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
      for (const tls of [{ ca: certs.ca }, { ca: certs.ca, cert: certs.otherClientCert, key: certs.otherClientKey }]) {
        const before = mtls.handshakes;
        expectCertificateError(await failure(() => A2AClient.connect(mtls.url, { ...FIVE, proxy: proxy.url, tls })));
        await settle();
        expect(mtls.handshakes - before).toBe(1);
      }
    } finally {
      await proxy.close();
      await mtls.close();
    }
  });
});
