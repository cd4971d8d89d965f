// Node, Bun and Deno: the smoke test's CLI entry run as a script by the runtime's binary.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './consumer.mjs';

/** Major versions installed by scripts/runtime-bin.sh (newest release of each, cached). */
export const VERSIONS = { bun: '1', deno: '2', workerd: '1' };
const RUN_TIMEOUT_MS = 60_000;

/** The cached binary of a registry-packaged runtime (installed on first use). @throws when it cannot be installed. */
export function runtimeBinary(name) {
  return execFileSync(join(root, 'scripts/runtime-bin.sh'), [name, VERSIONS[name]], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

function commandFor(name) {
  if (name === 'node') return { bin: process.execPath, args: [] };
  const bin = runtimeBinary(name);
  // Deno: only loopback, only reading the project (its node_modules); no prompt in CI.
  if (name === 'deno') return { bin, args: ['run', '--no-prompt', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--allow-sys'] };
  return { bin, args: [] };
}

/** A runtime for ./run.mjs: `version` (as its binary prints it) and `run()`. */
export function scriptRuntime(name) {
  const { bin, args } = commandFor(name);
  const printed = execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
  const version = printed.startsWith(name) ? printed : `${name} ${printed.replace(/^v/, '')}`;
  const runtime = {
    bin,
    args,
    version: `${version} (${bin})`,
    run: ({ dir, urls, engine }) => runEntry(runtime, dir, 'cli-entry.mjs', [JSON.stringify(urls), engine], 'SMOKE-RESULT'),
  };
  return runtime;
}

/**
 * Runs `file` of the consumer folder `dir` with the runtime; resolves the JSON it printed after `marker`
 * (with `stderr` added when it wrote any). @throws when it printed none (its output is in the error).
 */
export function runEntry(runtime, dir, file, argv, marker) {
  return runScript(runtime.bin, [...runtime.args, join(dir, file), ...argv], dir, `${marker} `);
}

function runScript(bin, args, cwd, marker) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith(marker));
      if (line === undefined) {
        reject(new Error(`${bin} exited (${signal ?? code}) without a result:\n${out}${err}`.trim()));
        return;
      }
      const report = JSON.parse(line.slice(marker.length));
      if (err.trim() !== '') report.stderr = err.trim();
      resolve(report);
    });
  });
}
