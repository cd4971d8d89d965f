/**
 * Spawns one measured client process (`workload-child.mjs`, possibly wrapped by taskset and/or
 * valgrind) and collects its one-line JSON report from stdout and its stderr.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of the workload client script. */
export const CHILD_PATH = fileURLToPath(new URL('./workload-child.mjs', import.meta.url));

/**
 * Runs `command args` with `env` added; resolves `{ report, stderr, code, ms }` where `report` is the
 * parsed last stdout line (or `{ ok: false, error }`). Kills the process after `timeoutMs`.
 */
export function runChild(command, args, { env = {}, timeoutMs = 600_000 } = {}) {
  const t0 = performance.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').at(-1) ?? '';
      let report;
      try {
        report = JSON.parse(line);
      } catch {
        report = { ok: false, error: `no report (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}` };
      }
      resolve({ report, stderr, code, ms: performance.now() - t0 });
    });
  });
}
