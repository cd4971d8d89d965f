import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { PushAuthFunction, PushJwtAuth, PushReceiverOptions } from './options.js';
import type { TokenRegistry } from './tokens.js';

/**
 * The verdict on a delivery's credentials: let in (with the task its token is bound to, and a JWT's
 * id with the time its token stops being accepted, epoch ms), or why not.
 */
export type AuthVerdict = { ok: true; taskId?: string; jti?: { id: string; until: number } } | { ok: false; reason: string };

/** Checks a delivery's headers; never reads the body, never throws. */
export type Authenticator = (request: Request) => Promise<AuthVerdict>;

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

function bearerOf(request: Request): string | undefined {
  return BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
}

function tokenAuth(tokens: TokenRegistry): Authenticator {
  return async (request) => {
    const presented = [bearerOf(request), request.headers.get('x-a2a-notification-token') ?? undefined].filter((t): t is string => t !== undefined && t !== '');
    if (presented.length === 0) return { ok: false, reason: 'no token' };
    for (const token of presented) {
      const taskId = await tokens.check(token);
      if (taskId !== undefined) return { ok: true, taskId };
    }
    return { ok: false, reason: 'unknown or revoked token' };
  };
}

function jwtAuth(options: PushJwtAuth): Authenticator {
  const { jwks } = options;
  const keys: JWTVerifyGetKey = typeof jwks === 'string' || jwks instanceof URL ? createRemoteJWKSet(new URL(jwks)) : createLocalJWKSet(jwks);
  const verify = {
    maxTokenAge: options.maxTokenAgeSeconds ?? 300,
    ...(options.audience === undefined ? {} : { audience: options.audience }),
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    ...(options.algorithms === undefined ? {} : { algorithms: options.algorithms }),
  };
  const maxAgeMs = verify.maxTokenAge * 1000;
  return async (request) => {
    const jwt = bearerOf(request);
    if (jwt === undefined) return { ok: false, reason: 'no bearer JWT' };
    try {
      const { payload } = await jwtVerify(jwt, keys, verify);
      const { taskId, jti, iat, exp } = payload;
      if (taskId !== undefined && typeof taskId !== 'string') return { ok: false, reason: 'JWT refused (taskId is not a string)' };
      if (taskId === undefined && options.requireTaskId === true) return { ok: false, reason: 'JWT refused (no taskId claim)' };
      if (jti === undefined && options.requireJti === true) return { ok: false, reason: 'JWT refused (no jti claim)' };
      const verdict: AuthVerdict = taskId === undefined ? { ok: true } : { ok: true, taskId };
      if (jti === undefined) return verdict;
      // jose checked iat (maxTokenAge requires it): the token is accepted until iat + max age, or exp if sooner.
      const byAge = (iat ?? 0) * 1000 + maxAgeMs;
      return { ...verdict, jti: { id: jti, until: exp === undefined ? byAge : Math.min(byAge, exp * 1000) } };
    } catch (error) {
      // jose's codes (ERR_JWT_EXPIRED, ERR_JWT_CLAIM_VALIDATION_FAILED, …) name the reason; its
      // messages may quote claims, so only the code is kept.
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'ERR_JWT_INVALID';
      return { ok: false, reason: `JWT refused (${code})` };
    }
  };
}

function functionAuth(check: PushAuthFunction): Authenticator {
  return async (request) => {
    // The function sees the method, URL and headers only: the body is read after it says yes.
    const headersOnly = new Request(request.url, { method: request.method, headers: request.headers });
    try {
      return (await check(headersOnly)) === true ? { ok: true } : { ok: false, reason: 'refused by the auth function' };
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      return { ok: false, reason: `the auth function threw (${name})` };
    }
  };
}

/** The authenticator `options.auth` asks for. @throws TypeError for an `auth` of another shape. */
export function createAuthenticator(auth: PushReceiverOptions['auth'], tokens: TokenRegistry): Authenticator {
  if (auth === undefined || auth === 'token') return tokenAuth(tokens);
  if (typeof auth === 'function') return functionAuth(auth);
  if (typeof auth === 'object' && auth !== null && 'jwks' in auth) return jwtAuth(auth);
  throw new TypeError("pushReceiver: auth must be 'token', { jwks, … } or a function");
}
