/**
 * Interleaved slices: the contenders of a row run side by side in processes of their own, pinned to
 * the same client core, and take turns — slice 1 of A, slice 1 of B, slice 2 of B, slice 2 of A, …
 * (the order rotating each slice) — each slice a fixed number of calls or events whose client CPU the
 * child measures itself. A contender that waits for its turn sleeps on its IPC channel, so slices
 * never overlap, and a slow spell of this machine (they last seconds here) falls on both sides of a
 * pair instead of on one process: the per-slice ratios are much tighter than those of a process per
 * contender per round. Parent side: {@link openSliced}, {@link interleave}; child side: {@link serveSlices}.
 */
import { spawn } from 'node:child_process';
import { median } from './stats.mjs';

/**
 * Child side: after its warm-up, serves slices until the parent says stop. `run(units)` runs one
 * slice and resolves the units it did; each answer is `{ cpuUs, sysUs, ms, units, reads }` (or
 * `{ error }`); `reads`: the growth of `counter()` over the slice (e.g. read syscalls), when given.
 */
export function serveSlices(run, counter = undefined) {
  return new Promise((resolve) => {
    process.on('message', (m) => {
      if (m?.stop) {
        process.removeAllListeners('message');
        resolve();
        return;
      }
      const r0 = counter?.();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      run(m.units).then(
        (units) => {
          const used = process.cpuUsage(c0);
          const ms = performance.now() - t0;
          process.send({ cpuUs: used.user + used.system, sysUs: used.system, ms, units, reads: r0 === undefined ? undefined : counter() - r0 });
        },
        (err) => process.send({ error: err instanceof Error ? err.message : String(err) }),
      );
    });
    process.send({ ready: true });
  });
}

/**
 * Parent side: spawns `command args` (a child that calls {@link serveSlices}) and waits for it to be
 * warm. Resolves `{ slice(units), stop() }`: `slice` resolves `{ cpuUsPerUnit, sysUsPerUnit, rate,
 * readsPerUnit }`, `stop` the child's final JSON line. Rejects with the child's own report when it fails before it is ready.
 */
export function openSliced(command, args, { timeoutMs = 900_000 } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const lastLine = () => stdout.trim().split('\n').at(-1) ?? '';
  const exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  const failure = (what) => {
    let error = `${what}: ${stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`;
    try {
      error = JSON.parse(lastLine()).error ?? error;
    } catch {
      // No report line: the stderr tail says why.
    }
    return new Error(error);
  };
  const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const answer = () =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(failure(`client exited (code ${code})`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        if (m.error) reject(new Error(m.error));
        else resolve(m);
      });
    });
  return answer().then(
    () => ({
      async slice(units) {
        const m = await (child.send({ units }), answer());
        return { cpuUsPerUnit: m.cpuUs / m.units, sysUsPerUnit: m.sysUs / m.units, rate: (m.units / m.ms) * 1000, readsPerUnit: m.reads === undefined ? undefined : m.reads / m.units };
      },
      async stop() {
        if (child.connected) child.send({ stop: true });
        await exited;
        clearTimeout(kill);
        return lastLine();
      },
    }),
    (err) => {
      clearTimeout(kill);
      child.kill('SIGKILL');
      throw err;
    },
  );
}

/**
 * Runs `slices` turns of every opened contender (`{ key: sliced }`, the first is the reference),
 * `units` each, the order rotating per turn. Resolves per key `{ cpuUs, sysUs, rate, readsPerUnit }`
 * (medians over the slices), `cpuUsByTurn` (every turn's) and, for every key but the reference,
 * `vsRef` / `rateVsRef` (the medians of the ratios of each turn's slices) and `vsRefSlices` (every
 * turn's ratio).
 */
export async function interleave(contenders, slices, units, log = () => {}) {
  const keys = Object.keys(contenders);
  const turns = [];
  for (let t = 0; t < slices; t++) {
    const turn = {};
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + t) % keys.length];
      turn[key] = await contenders[key].slice(units);
    }
    turns.push(turn);
  }
  const [ref] = keys;
  const cells = {};
  for (const key of keys) {
    const ratios = (pick) => turns.map((x) => pick(x[key]) / pick(x[ref]));
    const reads = turns.map((x) => x[key].readsPerUnit);
    cells[key] = {
      cpuUs: median(turns.map((x) => x[key].cpuUsPerUnit)),
      sysUs: median(turns.map((x) => x[key].sysUsPerUnit)),
      rate: median(turns.map((x) => x[key].rate)),
      readsPerUnit: reads.every(Number.isFinite) ? median(reads) : undefined,
      cpuUsByTurn: turns.map((x) => x[key].cpuUsPerUnit),
      ...(key === ref ? {} : { vsRef: median(ratios((c) => c.cpuUsPerUnit)), rateVsRef: median(ratios((c) => c.rate)), vsRefSlices: ratios((c) => c.cpuUsPerUnit) }),
    };
  }
  log(`  ${keys.map((k) => `${k} ${cells[k].cpuUs.toFixed(1)} µs${cells[k].vsRef === undefined ? '' : ` (${cells[k].vsRef.toFixed(2)}x)`}`).join(', ')}`);
  return cells;
}
