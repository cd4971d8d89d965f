/**
 * Memory section: each contender consumes one long stream in a fresh child process (so RSS is its own).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const childPath = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));

/**
 * Runs the memory probe for `contender` ('raw' | 'stream' | 'streamLean' | 'sendStreamingMessage')
 * against `baseUrl`, with chunks of `textBytes` (a long answer when large). Resolves the probe's
 * report (`ok: false` with `error` when it failed).
 */
export function memoryProbe(contender, baseUrl, events, textBytes = 1) {
  const child = fork(childPath, [contender, baseUrl, String(events), String(textBytes)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    let report = { ok: false, contender, error: 'probe exited without a report' };
    child.on('message', (m) => {
      report = m;
    });
    const timer = setTimeout(() => child.kill(), 180_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!report.ok && code !== 0 && report.error === 'probe exited without a report') report.error += ` (code ${code})`;
      resolve(report);
    });
  });
}
