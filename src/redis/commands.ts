import { ErrorReply } from 'redis';
import type { RedisClientLike } from './options.js';

/**
 * Adds to a counter and (re)sets its expiry in one atomic step. A key holding anything but an
 * integer (foreign or corrupt data, any type) is overwritten with the increment.
 */
const INCR_WITH_TTL = `
local ok, n = pcall(redis.call, 'INCRBY', KEYS[1], ARGV[1])
if not ok then
  redis.call('SET', KEYS[1], ARGV[1])
  n = tonumber(ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

/** Deletes a key only while it holds the given value (releasing a lease we hold, never another's). */
const DELETE_IF_EQUAL = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Keeps a probe lease this process holds (KEYS[1] holds ARGV[1]) alive for ARGV[2] ms, or gives it up
 * when another process asked for it (KEYS[2] holds another id) and giving up is allowed (ARGV[3] = 1).
 * Returns 1 (kept), 2 (given up) or 0 (not ours any more).
 */
const RENEW_LEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local want = redis.call('GET', KEYS[2])
if ARGV[3] == '1' and want and want ~= ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 2
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Marks this process alive in the fleet's sorted set (score: `Date.now()`), drops members not seen
 * since `ARGV[3]`, renews the set's expiry and returns how many are alive. A key of another type
 * (foreign data) is replaced.
 */
const HEARTBEAT = `
if not pcall(redis.call, 'ZADD', KEYS[1], ARGV[2], ARGV[1]) then
  redis.call('DEL', KEYS[1])
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return redis.call('ZCARD', KEYS[1])`;

/** True for an error the server answered with (bad data, wrong type), as opposed to a connection failure. */
export function isReplyError(error: unknown): boolean {
  return error instanceof ErrorReply;
}

/**
 * The commands the store sends, over a {@link RedisClientLike}, with their replies checked: a reply
 * of an unexpected shape is treated as absent, never trusted. Every method rejects with the client's
 * error when the command fails (a connection error, or an {@link isReplyError} reply).
 */
export class RedisCommands {
  constructor(private readonly client: RedisClientLike) {}

  /** True while the client can run commands. */
  get ready(): boolean {
    return this.client.isReady;
  }

  /** Adds `by` to counter `key`, setting its expiry to `ttlMs`; resolves with the new value (undefined if odd). */
  async incrWithTtl(key: string, by: number, ttlMs: number): Promise<number | undefined> {
    const reply = await this.client.sendCommand(['EVAL', INCR_WITH_TTL, '1', key, String(by), String(Math.round(ttlMs))]);
    return typeof reply === 'number' ? reply : undefined;
  }

  /** `SET key value PX ttlMs`. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.sendCommand(['SET', key, value, 'PX', String(Math.round(ttlMs))]);
  }

  /** `SET key value NX PX ttlMs`: true when it was set (the key was absent). */
  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const reply = await this.client.sendCommand(['SET', key, value, 'NX', 'PX', String(Math.round(ttlMs))]);
    return reply === 'OK';
  }

  /** `PTTL key`: ms left, -1 for a key without expiry, -2 for an absent key. */
  async pttl(key: string): Promise<number> {
    const reply = await this.client.sendCommand(['PTTL', key]);
    return typeof reply === 'number' ? reply : -2;
  }

  /** `MGET keys…`: each value as the server gave it (`null` for absent and non-string keys). */
  async mget(keys: readonly string[]): Promise<unknown[]> {
    if (keys.length === 0) return [];
    const reply = await this.client.sendCommand(['MGET', ...keys]);
    return Array.isArray(reply) && reply.length === keys.length ? reply : keys.map(() => undefined);
  }

  /** Deletes `key` if it still holds `value`. */
  async deleteIfEqual(key: string, value: string): Promise<void> {
    await this.client.sendCommand(['EVAL', DELETE_IF_EQUAL, '1', key, value]);
  }

  /**
   * Keeps the lease `key` (held as `value`) for `ttlMs` more, or gives it up when `wantKey` says
   * another process asked and `mayYield`. Resolves with `kept`, `yielded` or `lost` (not ours).
   */
  async renewLease(key: string, wantKey: string, value: string, ttlMs: number, mayYield: boolean): Promise<'kept' | 'yielded' | 'lost'> {
    const reply = await this.client.sendCommand(['EVAL', RENEW_LEASE, '2', key, wantKey, value, String(Math.round(ttlMs)), mayYield ? '1' : '0']);
    return reply === 1 ? 'kept' : reply === 2 ? 'yielded' : 'lost';
  }

  /** `PUBLISH channel message`. */
  async publish(channel: string, message: string): Promise<void> {
    await this.client.sendCommand(['PUBLISH', channel, message]);
  }

  /**
   * Marks process `id` alive at `now` in the sorted set `key`, forgets those not seen since
   * `aliveSince`, keeps the set `ttlMs`; resolves with how many processes are alive (undefined if odd).
   */
  async heartbeat(key: string, id: string, now: number, aliveSince: number, ttlMs: number): Promise<number | undefined> {
    const reply = await this.client.sendCommand(['EVAL', HEARTBEAT, '1', key, id, String(now), String(aliveSince), String(Math.round(ttlMs))]);
    return typeof reply === 'number' && reply >= 1 ? reply : undefined;
  }
}
