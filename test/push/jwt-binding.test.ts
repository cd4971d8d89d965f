/**
 * JWTs bound to their task and to one use: a `taskId` claim naming another task is refused (403); a
 * `jti` carries one delivery (the same bytes again are a repeat, 204; other bytes under it are 401);
 * `requireTaskId` / `requireJti` refuse tokens without them (401); a refused delivery does not use up
 * its `jti`; the memory of ids is bounded (429 with Retry-After when full).
 */
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { pushReceiver, type PushJwtAuth } from '../../src/push/index.js';
import { chunks, delivery, take, v1 } from './payloads.js';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let agentKey: Key;
let jwk: JWK;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  agentKey = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'agent-1', alg: 'ES256' };
});

function jwt(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'agent-1' }).setIssuedAt(now).setExpirationTime(now + 60).sign(agentKey);
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const auth = (extra: Partial<PushJwtAuth> = {}): PushJwtAuth => ({ jwks: { keys: [jwk] }, ...extra });

describe('JWT bound to its task', () => {
  it('a taskId claim for another task is 403, for this task 204', async () => {
    const receiver = pushReceiver({ auth: auth() });
    const iteration = receiver.events('t1');
    expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'forged', false), bearer(await jwt({ taskId: 't2' }))))).status).toBe(403);
    expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'ok', false), bearer(await jwt({ taskId: 't1' }))))).status).toBe(204);
    expect((await receiver.handleRequest(delivery(v1.status('t1', 'completed', 9), bearer(await jwt({ taskId: 't1' }))))).status).toBe(204);
    expect(chunks(await take(iteration))).toEqual(['ok']);
  });

  it('a taskId claim that is not a string is 401', async () => {
    const receiver = pushReceiver({ auth: auth() });
    receiver.events('t1');
    expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'x', false), bearer(await jwt({ taskId: ['t1'] }))))).status).toBe(401);
    await receiver.close();
  });

  it('requireTaskId and requireJti refuse tokens without them (401)', async () => {
    const receiver = pushReceiver({ auth: auth({ requireTaskId: true, requireJti: true }) });
    receiver.events('t1');
    const body = v1.chunk('t1', 'x', false);
    expect((await receiver.handleRequest(delivery(body, bearer(await jwt({ jti: 'j1' }))))).status).toBe(401);
    expect((await receiver.handleRequest(delivery(body, bearer(await jwt({ taskId: 't1' }))))).status).toBe(401);
    expect((await receiver.handleRequest(delivery(body, bearer(await jwt({ taskId: 't1', jti: 'j1' }))))).status).toBe(204);
    await receiver.close();
  });
});

describe('JWT bound to one use (jti)', () => {
  it('the same token with the same bytes is a repeat (204, delivered once); with other bytes 401', async () => {
    const receiver = pushReceiver({ auth: auth() });
    const iteration = receiver.events('t1');
    const token = await jwt({ taskId: 't1', jti: 'once' });
    const first = delivery(v1.chunk('t1', 'first', false), bearer(token));
    expect((await receiver.handleRequest(first)).status).toBe(204);
    expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'first', false), bearer(token)))).status).toBe(204);
    const replayed = await receiver.handleRequest(delivery(v1.chunk('t1', 'second, replayed', true), bearer(token)));
    expect(replayed.status).toBe(401);
    expect(replayed.headers.get('www-authenticate')).toBe('Bearer');
    expect((await receiver.handleRequest(delivery(v1.status('t1', 'completed', 9), bearer(await jwt({ jti: 'end' }))))).status).toBe(204);
    expect(chunks(await take(iteration))).toEqual(['first']);
  });

  it('a refused delivery does not use up its jti: the agent may retry with the same token', async () => {
    const receiver = pushReceiver({ auth: auth() });
    const iteration = receiver.events('t1');
    const token = await jwt({ jti: 'retry' });
    // No iteration yet for t9: refused (404) before the jti is claimed.
    expect((await receiver.handleRequest(delivery(v1.chunk('t9', 'x', false), bearer(token)))).status).toBe(404);
    expect((await receiver.handleRequest(delivery(v1.chunk('t1', 'taken', false), bearer(token)))).status).toBe(204);
    await receiver.close();
    expect(chunks(await take(iteration))).toEqual(['taken']);
  });

  it('bounded memory: when maxRememberedJtis live ids are held, a new one is 429 with Retry-After', async () => {
    const receiver = pushReceiver({ auth: auth({ maxRememberedJtis: 2 }) });
    receiver.events('t1');
    for (const id of ['a', 'b']) expect((await receiver.handleRequest(delivery(v1.chunk('t1', id, true), bearer(await jwt({ jti: id }))))).status).toBe(204);
    const full = await receiver.handleRequest(delivery(v1.chunk('t1', 'c', true), bearer(await jwt({ jti: 'c' }))));
    expect(full.status).toBe(429);
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    await receiver.close();
  });
});
