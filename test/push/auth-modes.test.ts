/**
 * JWT authentication (jose, against a local JWK Set and one served on loopback): a valid token is let
 * in; an expired one, one for another audience or issuer, one too old by `iat`, one signed by another
 * key, and none at all are 401 and deliver nothing. With default token auth, a delivery for a task
 * with no registration is 401 before its body is read.
 */
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { pushReceiver, type PushReceiverEvent } from '../../src/push/index.js';
import { delivery, take, v1 } from './payloads.js';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let agentKey: Key;
let otherKey: Key;
let jwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  agentKey = pair.privateKey;
  otherKey = (await generateKeyPair('ES256')).privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'agent-1', alg: 'ES256' };
});

function jwt(claims: { aud?: string; iss?: string; iat?: number; exp?: number } = {}, key: Key = agentKey): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: 'agent-1' })
    .setAudience(claims.aud ?? 'https://coordinator.example/push')
    .setIssuer(claims.iss ?? 'https://agent.example')
    .setIssuedAt(claims.iat ?? now)
    .setExpirationTime(claims.exp ?? now + 60)
    .sign(key);
}

describe('JWT auth with a local JWK Set', () => {
  it('lets in a valid token; refuses expired, wrong audience or issuer, too old, foreign key, missing (401, nothing delivered)', async () => {
    const refused: PushReceiverEvent[] = [];
    const receiver = pushReceiver({
      auth: { jwks: { keys: [jwk] }, audience: 'https://coordinator.example/push', issuer: 'https://agent.example', maxTokenAgeSeconds: 120 },
      onEvent: (e) => refused.push(e),
    });
    const iteration = receiver.events('t1');
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      await jwt({ iat: now - 30, exp: now - 10 }),
      await jwt({ aud: 'https://someone-else.example' }),
      await jwt({ iss: 'https://impostor.example' }),
      await jwt({ iat: now - 600, exp: now + 60 }),
      await jwt({}, otherKey),
    ];
    for (const token of bad) {
      const res = await receiver.handleRequest(delivery(v1.task('t1', 'completed', ['forged']), { authorization: `Bearer ${token}` }));
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain(token);
    }
    expect((await receiver.handleRequest(delivery(v1.task('t1', 'completed', ['forged'])))).status).toBe(401);
    expect(refused.map((e) => (e.type === 'refused' ? e.reason : e.type))).toEqual([
      'JWT refused (ERR_JWT_EXPIRED)',
      'JWT refused (ERR_JWT_CLAIM_VALIDATION_FAILED)',
      'JWT refused (ERR_JWT_CLAIM_VALIDATION_FAILED)',
      'JWT refused (ERR_JWT_EXPIRED)',
      'JWT refused (ERR_JWS_SIGNATURE_VERIFICATION_FAILED)',
      'no bearer JWT',
    ]);
    const ok = await receiver.handleRequest(delivery(v1.task('t1', 'completed', ['genuine']), { authorization: `Bearer ${await jwt()}` }));
    expect(ok.status).toBe(204);
    expect((await take(iteration)).map((e) => e.text)).toEqual(['genuine', 'genuine']);
  });

  it('a JWK Set served over HTTP (loopback) is fetched by URL', async () => {
    let fetched = 0;
    const keys = createServer((_req, res) => {
      fetched++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
    try {
      const address = keys.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/jwks.json`;
      const receiver = pushReceiver({ auth: { jwks: url, audience: 'https://coordinator.example/push' } });
      const iteration = receiver.events('t1');
      const res = await receiver.handleRequest(delivery(v1.task('t1', 'completed', ['via url']), { authorization: `Bearer ${await jwt()}` }));
      expect(res.status).toBe(204);
      expect((await take(iteration)).at(-1)?.text).toBe('via url');
      expect(fetched).toBe(1);
    } finally {
      await new Promise<void>((resolve) => keys.close(() => resolve()));
    }
  });
});

describe('default token auth', () => {
  it('a delivery without a registration is 401 before its body is read, whatever it carries', async () => {
    const receiver = pushReceiver();
    receiver.events('t1');
    let reads = 0;
    const body = (): ReadableStream<Uint8Array> => {
      let sent = false;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          // Each pull after the first one (which the stream makes on its own) is a read by the receiver.
          if (sent) reads++;
          sent = true;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        },
      });
    };
    const attempts: Array<Record<string, string>> = [{ authorization: 'Bearer abc.def' }, { 'x-a2a-notification-token': 'abc' }, { authorization: 'Basic dTpw' }, {}];
    for (const headers of attempts) {
      const res = await receiver.handleRequest(new Request('http://127.0.0.1/', { method: 'POST', headers, body: body(), duplex: 'half' } as RequestInit));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(reads).toBe(0);
    await receiver.close();
  });

  it('rejects options of the wrong shape', () => {
    expect(() => pushReceiver({ maxBodyBytes: 0 })).toThrow(TypeError);
    expect(() => pushReceiver({ auth: 'jwt' as unknown as 'token' })).toThrow(TypeError);
  });
});
