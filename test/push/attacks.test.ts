/**
 * A sender trying what an attacker would, each answered with a 4xx and nothing delivered: `alg: none`,
 * HS256 signed with the agent's public key (key confusion), sender-chosen key locations (`jku`, `x5u`,
 * an embedded `jwk`: nothing is fetched), a valid JWT in the query string instead of the header, a
 * body shorter than its `Content-Length` (it never completes: 408), and prototype keys at every level.
 */
import { connect } from 'node:net';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pushReceiver } from '../../src/push/index.js';
import { chunks, delivery, take, v1 } from './payloads.js';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let agentKey: Key;
let attackerKey: Key;
let jwk: JWK;
let attackerJwk: JWK;
const servers: Server[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  agentKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'agent-1', alg: 'ES256' };
  const attacker = await generateKeyPair('ES256');
  attackerKey = attacker.privateKey;
  attackerJwk = { ...(await exportJWK(attacker.publicKey)), kid: 'evil', alg: 'ES256' };
});

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

const b64 = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = (): number => Math.floor(Date.now() / 1000);

describe('forged and misplaced JWTs', () => {
  it('alg none, HS256 with the public key, jku / x5u / embedded jwk, and a JWT in the query string: 401, nothing fetched or delivered', async () => {
    let fetched = 0;
    const evil = await listen((_req, res) => {
      fetched++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [attackerJwk] }));
    });
    const evilUrl = `http://127.0.0.1:${evil.port}/jwks.json`;
    const receiver = pushReceiver({ auth: { jwks: { keys: [jwk] } } });
    const iteration = receiver.events('t1');
    const claims = { taskId: 't1', iat: now(), exp: now() + 60 };
    const forged = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'agent-1' }).sign(new TextEncoder().encode(JSON.stringify(jwk))),
      await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'evil', jku: evilUrl }).sign(attackerKey),
      await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'evil', x5u: evilUrl }).sign(attackerKey),
      await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', jwk: { kty: attackerJwk.kty ?? 'EC', crv: attackerJwk.crv ?? '', x: attackerJwk.x ?? '', y: attackerJwk.y ?? '' } }).sign(attackerKey),
    ];
    for (const token of forged) {
      expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'forged', true), { authorization: `Bearer ${token}` }))).status).toBe(401);
    }
    const valid = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'agent-1' }).sign(agentKey);
    const inQuery = new Request(`http://127.0.0.1/push?access_token=${valid}&token=${valid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(v1.chunk('t1', 'forged', true)),
    });
    expect((await receiver.handleRequest(inQuery)).status).toBe(401);
    expect(fetched).toBe(0);
    await receiver.close();
    expect(chunks(await take(iteration))).toEqual([]);
  });
});

describe('framing', () => {
  it('a body shorter than its Content-Length never completes: 408 after the idle gap, the connection closed', async () => {
    const receiver = pushReceiver({ auth: () => true, bodyIdleMs: 300 });
    const { port } = await listen(receiver.nodeListener);
    const iteration = receiver.events('t1');
    const body = JSON.stringify(v1.chunk('t1', 'short', true));
    const text = await new Promise<string>((resolve) => {
      let got = '';
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 10}\r\n\r\n${body}`);
      });
      socket.on('data', (d: Buffer) => (got += d.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', () => undefined);
    });
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text.toLowerCase()).toContain('connection: close');
    await receiver.close();
    expect(chunks(await take(iteration))).toEqual([]);
  });

  it('prototype keys at the top, in a part and in metadata: taken as data, nothing polluted', async () => {
    const receiver = pushReceiver({ auth: () => true });
    const iteration = receiver.events('t1');
    const body = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"artifactUpdate":{"taskId":"t1","contextId":"ctx","append":false,"artifact":{"artifactId":"a","parts":[{"text":"safe","metadata":{"__proto__":{"polluted":1}}},{"data":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}}]}}}';
    const status = (await receiver.handleRequest(delivery(body))).status;
    expect(status === 204 || status === 400).toBe(true);
    expect((await receiver.handleRequest(delivery(v1.status('t1', 'completed', 9)))).status).toBe(204);
    const events = await take(iteration);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    if (status === 204) expect(chunks(events).join('')).toContain('safe');
  });
});
