/**
 * A real `redis-server` for tests: started on a free loopback port with no persistence, in its own
 * temporary directory, and stopped (or killed, paused, restarted) on demand. Never the shared
 * instance on 6379.
 *
 * Where no `redis-server` binary exists (`REDIS_SERVER` names one explicitly), {@link describeWithRedis}
 * fails the suite under `CI=true` and skips it with a printed reason otherwise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';

/** A running (or stopped) test server. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The server's pid while it runs. */
  readonly pid: number | undefined;
  /** SIGKILL: the server dies at once, its data with it. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty). */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered. */
  pause(): void;
  /** SIGCONT after {@link pause}. */
  resume(): void;
  /** Stops it for good and removes its directory. */
  stop(): Promise<void>;
}

/** The redis-server binary: `$REDIS_SERVER`, `/usr/bin/redis-server`, or the first on PATH; undefined when none. */
export function findRedisServer(): string | undefined {
  const candidates = [process.env.REDIS_SERVER, '/usr/bin/redis-server', ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'redis-server'))];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // Not there or not executable: try the next candidate.
      continue;
    }
  }
  return undefined;
}

/**
 * `describe` for suites that need a real Redis: with no redis-server binary, under `CI=true` the
 * suite fails (CI machines must have it), otherwise it is skipped with the reason printed.
 */
export function describeWithRedis(name: string, body: () => void): void {
  if (findRedisServer() !== undefined) {
    describe(name, body);
    return;
  }
  const reason = 'no redis-server binary (install the redis-server package, or set REDIS_SERVER)';
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs redis-server', () => {
        throw new Error(`${name}: ${reason}; CI machines must have it`);
      });
    });
    return;
  }
  process.stderr.write(`skipping "${name}": ${reason}\n`);
  describe.skip(name, body);
}

/** A port free on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Spawns the server on `port` in `dir`; resolves once it accepts connections. */
function spawnServer(bin: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes'];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!settled && output.includes('Ready to accept connections')) {
        settled = true;
        clearTimeout(timer);
        output = '';
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Starts a redis-server on a free loopback port.
 * @throws Error when no binary exists or it does not start (after 3 tries with fresh ports).
 */
export async function startRedisServer(): Promise<RedisServer> {
  const bin = findRedisServer();
  if (bin === undefined) throw new Error('no redis-server binary');
  const dir = mkdtempSync(join(tmpdir(), 'a2a-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let tries = 0; child === undefined; tries++) {
    port = await freePort();
    try {
      child = await spawnServer(bin, port, dir);
    } catch (error) {
      // Another process may have taken the port between the probe and the start: a fresh one.
      if (tries >= 2) throw error;
    }
  }
  let current: ChildProcess | undefined = child;
  const kill = async (): Promise<void> => {
    const c = current;
    current = undefined;
    if (!c) return;
    c.kill('SIGCONT');
    c.kill('SIGKILL');
    await exited(c);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return current?.pid;
    },
    kill,
    restart: async () => {
      await kill();
      current = await spawnServer(bin, port, dir);
    },
    pause: () => current?.kill('SIGSTOP'),
    resume: () => current?.kill('SIGCONT'),
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
