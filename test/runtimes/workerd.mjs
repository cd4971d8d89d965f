// Cloudflare workerd for the runtime smoke test: the worker entry bundled by esbuild as a user's
// bundler would (conditions `workerd`, `worker`), a minimal config written here (one worker, one
// loopback socket, outbound allowed to loopback addresses: the agents), workerd started on it, and
// the checks run by one HTTP request to the worker.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleResult } from './bundle-check.mjs';
import { runtimeBinary, VERSIONS } from './script-runtime.mjs';

/** The compatibility date the worker asks for (workerd accepts dates up to its own release). */
const COMPATIBILITY_DATE = '2026-11-01';
/**
 * Compatibility flags: `nodejs_compat` is on by default from 2026-08-04, so it is turned off, and a
 * worker that needs Node's modules fails here as it would for a user without it (A2A_WORKERD_FLAGS
 * replaces the list, comma-separated).
 */
const FLAGS = (process.env.A2A_WORKERD_FLAGS ?? 'no_nodejs_compat').split(',').filter(Boolean);

/** A free loopback port (bound and released; workerd binds it next). */
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

function config(port) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "smoke", worker = .smokeWorker),
    # The agents listen on 127.0.0.1: outbound to loopback ("local") must be allowed explicitly.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "smoke") ],
);

const smokeWorker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = [${FLAGS.map((f) => JSON.stringify(f)).join(', ')}],
  globalOutbound = "loopback",
);
`;
}

/** Bundles the worker into `dir`/worker.js. Resolves the `bundle` smoke result (see bundle-check.mjs).
 * @throws esbuild's errors (e.g. a Node built-in it cannot resolve). */
export async function bundleWorker(dir) {
  const { metafile } = await build({
    entryPoints: [join(dir, 'worker-entry.mjs')],
    outfile: join(dir, 'worker.js'),
    absWorkingDir: dir,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker'],
    mainFields: ['module', 'main'],
    target: 'es2022',
    // With nodejs_compat, workerd provides Node's built-in modules itself.
    ...(FLAGS.includes('nodejs_compat') ? { platform: 'node' } : {}),
    logLevel: 'silent',
    metafile: true,
  });
  return bundleResult(metafile, join(dir, 'worker.js'));
}

/** A runtime for ./run.mjs. */
export function workerdRuntime() {
  const bin = runtimeBinary('workerd');
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  return {
    // No check of the engine from the agent's side: workerd's fetch sends no user-agent, like undici;
    // the `bundle` result shows undici is not in the worker at all.
    engine: undefined,
    version: `${version} (${bin}; npm @cloudflare/workerd-linux-64@${VERSIONS.workerd})`,
    run: async ({ dir, urls, engine }) => {
      const bundle = await bundleWorker(dir);
      const port = await freePort();
      writeFileSync(join(dir, 'workerd.capnp'), config(port));
      const child = spawn(bin, ['serve', join(dir, 'workerd.capnp'), '--verbose'], { cwd: dir, env: { ...process.env, PWD: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      child.stdout.on('data', (d) => (log += d));
      child.stderr.on('data', (d) => (log += d));
      const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(`workerd exited (${signal ?? code})`)));
      try {
        const base = `http://127.0.0.1:${port}`;
        await waitUntilServing(base, exited, () => log);
        const query = new URLSearchParams({ agents: JSON.stringify(urls), engine });
        const response = await fetch(`${base}/smoke?${query}`, { signal: AbortSignal.timeout(60_000) });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`the worker answered ${response.status}: ${text.slice(0, 2000)}\n${log}`);
        const report = JSON.parse(text);
        report.results.unshift(bundle);
        if (log.trim() !== '') report.stderr = log.trim();
        return report;
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Waits until workerd answers on `base` (any status), up to 10 s. @throws when it exits or never answers. */
async function waitUntilServing(base, exited, log) {
  const deadline = Date.now() + 10_000;
  let gone;
  void exited.then((why) => (gone = why));
  while (Date.now() < deadline) {
    if (gone !== undefined) throw new Error(`${gone} before serving:\n${log()}`);
    try {
      await fetch(`${base}/ready`, { method: 'HEAD', signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`workerd did not serve within 10 s:\n${log()}`);
}
