/**
 * A throwaway redis-server for the shared-state section: a free loopback port, no persistence, its
 * own temporary directory; never the shared instance on 6379. `startRedis()` resolves
 * `{ url, stop() }`, or `{ skipped: reason }` when there is no redis-server binary
 * (`REDIS_SERVER` names one explicitly).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

function findBinary() {
  const candidates = [process.env.REDIS_SERVER, '/usr/bin/redis-server', ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'redis-server'))];
  for (const c of candidates) {
    if (!c) continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      continue; // not there: the next candidate
    }
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server; resolves `{ url, stop }` once it accepts connections, or `{ skipped }`. */
export async function startRedis() {
  const bin = findBinary();
  if (!bin) return { skipped: 'no redis-server binary (set REDIS_SERVER or install redis-server)' };
  const dir = mkdtempSync(join(tmpdir(), 'a2a-bench-redis-'));
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
