/**
 * `node bench/runtime-engines.mjs [node bun deno]`: which engine a runtime should get by default.
 * Runs test/runtimes/engine-bench-entry.mjs in each runtime (binaries from scripts/runtime-bin.sh)
 * with the default engine and with `{ fetch: globalThis.fetch }`, against the bench agent
 * (bench/server.mjs, a child Node process), and prints, per operation, the client process's CPU time
 * and the wall time for a sequential send, a send with 16 in flight, and a 1,000-event stream: the
 * median of ROUNDS runs (engines alternating, so both see the same load). Expects a build
 * (`npm run build`). A runtime whose default engine fails says so in its row.
 */
const ROUNDS = Number(process.env.ROUNDS ?? '5');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
import { createConsumer } from '../test/runtimes/consumer.mjs';
import { runEntry, scriptRuntime } from '../test/runtimes/script-runtime.mjs';
import { startAgents } from './server-control.mjs';

const runtimes = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['node', 'bun', 'deno'];
const consumer = createConsumer();
const agent = await startAgents(['ok']);
const rows = [];
try {
  for (const name of runtimes) {
    const runtime = scriptRuntime(name);
    const runs = { default: [], fetch: [] };
    const failures = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const engine of ['default', 'fetch']) {
        if (failures[engine]) continue;
        try {
          runs[engine].push(await runEntry(runtime, consumer.dir, 'engine-bench-entry.mjs', [agent.urls[0], engine], 'ENGINE-BENCH'));
        } catch (error) {
          failures[engine] = String(error.message).split('\n').slice(0, 2).join(' ').slice(0, 160);
        }
      }
    }
    for (const engine of ['default', 'fetch']) {
      const label = `${runtime.version.split(' ').slice(0, 2).join(' ').padEnd(14)} ${engine.padEnd(8)}`;
      if (failures[engine]) {
        rows.push(`${label} failed: ${failures[engine]}`);
        continue;
      }
      const cell = (metric, kind, digits) => {
        const values = runs[engine].map((r) => r[metric][kind]).filter((v) => v !== undefined);
        return (values.length > 0 ? median(values).toFixed(digits) : '-').padStart(10);
      };
      rows.push(`${label} ${cell('sendMs', 'cpu', 3)} ${cell('concurrentSendMs', 'cpu', 3)} ${cell('streamMs', 'cpu', 2)} ${cell('sendMs', 'wall', 3)} ${cell('concurrentSendMs', 'wall', 3)} ${cell('streamMs', 'wall', 2)}`);
    }
  }
} finally {
  await agent.stop();
  consumer.dispose();
}
console.log(`${''.padEnd(23)} ${'CPU ms per operation'.padEnd(32)} ${'wall ms per operation'}`);
console.log(`${'runtime'.padEnd(14)} ${'engine'.padEnd(8)} ${['send', '16×send', 'stream', 'send', '16×send', 'stream'].map((h) => h.padStart(10)).join(' ')}`);
for (const row of rows) console.log(row);
