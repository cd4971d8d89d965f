// Node, Bun and Deno: the smoke test's CLI entry run as a script by the runtime's binary.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './consumer.mjs';

/** Major versions installed by scripts/runtime-bin.sh (newest release of each, cached). */
export const VERSIONS = { bun: '1', deno: '2', workerd: '1' };
const RUN_TIMEOUT_MS = 60_000;

/**
 * The cached binary of a registry-packaged runtime (installed on first use, quietly: the runtime's own
 * line comes first in the output). @throws when it cannot be installed (with the installer's output).
 */
export function runtimeBinary(name) {
  try {
    return execFileSync(join(root, 'scripts/runtime-bin.sh'), [name, VERSIONS[name]], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    throw new Error(`scripts/runtime-bin.sh ${name} ${VERSIONS[name]} failed: ${String(error.stderr ?? error.message).trim()}`, { cause: error });
  }
}

/**
 * Deno's permissions per variant: `env` is what undici needs (the default engine is then undici),
 * `net-only` what a cautious user grants (the default engine is then fetch). Never a prompt.
 */
export const DENO_VARIANTS = {
  env: ['--allow-net=127.0.0.1', '--allow-env'],
  'net-only': ['--allow-net=127.0.0.1'],
};

/**
 * A runtime for ./run.mjs: `version` (as its binary prints it, with the flags it runs with) and
 * `run()`. `variant`: Deno's permissions (a key of {@link DENO_VARIANTS}).
 */
export function scriptRuntime(name, variant = 'env') {
  const bin = name === 'node' ? process.execPath : runtimeBinary(name);
  const args = name === 'deno' ? ['run', '--no-prompt', ...DENO_VARIANTS[variant]] : [];
  const printed = execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
  const version = `${printed.startsWith(name) ? printed.replace(/ \(.*/, '') : `${name} ${printed.replace(/^v/, '')}`}${args.length > 0 ? ` ${args.join(' ')}` : ''}`;
  const runtime = {
    bin,
    args,
    version: `${version} (${bin})`,
    // The engine a client gets here by default (src/transport/undici-support.ts).
    engine: name === 'bun' || (name === 'deno' && variant === 'net-only') ? 'fetch' : 'undici',
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
