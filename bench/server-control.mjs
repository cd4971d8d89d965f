/**
 * Parent side of the benchmark agent: starts `server.mjs` in a child process and waits for its ports.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverPath = fileURLToPath(new URL('./server.mjs', import.meta.url));

/**
 * Starts one child process serving one loopback agent per mode ('ok' | 'hang' | '503').
 * Resolves `{ urls, ports, stop, pid }`; `stop()` ends the child. Rejects if the child exits first or
 * does not report within 10 s.
 */
export function startAgents(modes, env = {}) {
  const child = fork(serverPath, [modes.join(',')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('bench server did not report its ports within 10 s'));
    }, 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench server exited early (code ${code})`));
    });
    child.once('message', (m) => {
      clearTimeout(timer);
      const ports = m?.ports ?? [];
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.disconnect();
          setTimeout(() => child.kill(), 2_000).unref();
        });
      resolve({ ports, urls: ports.map((p) => `http://127.0.0.1:${p}`), stop, pid: child.pid });
    });
  });
}
