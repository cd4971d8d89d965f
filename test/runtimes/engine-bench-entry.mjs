// Entry of bench/runtime-engines.mjs, run by Node, Bun or Deno from the consumer folder: times the
// engine given as the second argument (`default`, or `fetch` for `{ fetch: globalThis.fetch }`) against
// the bench agent at the first argument: sequential sends, concurrent sends, and 1,000-event streams.
// Prints one JSON line after a marker.
import { A2AClient } from 'a2a-resilient';

const args = typeof globalThis.Deno === 'object' ? globalThis.Deno.args : process.argv.slice(2);
const [url, engine] = args;
const client = await A2AClient.connect(url, engine === 'fetch' ? { fetch: globalThis.fetch.bind(globalThis) } : {});
const say = (text) => ({ message: { role: 'user', parts: [{ kind: 'text', text }] } });

// Wall time and this process's CPU time per operation (CPU time is steadier on a loaded machine).
const cpu = () => (typeof process === 'object' && typeof process.cpuUsage === 'function' ? process.cpuUsage() : undefined);
async function timed(n, fn) {
  const c0 = cpu();
  const t0 = performance.now();
  await fn(n);
  const wall = (performance.now() - t0) / n;
  const c1 = cpu();
  return { wall, cpu: c0 && c1 ? (c1.user + c1.system - c0.user - c0.system) / 1000 / n : undefined };
}
const sequential = async (n) => {
  for (let i = 0; i < n; i++) await client.sendMessage(say('hi'));
};
const concurrent = async (n) => {
  for (let i = 0; i < n; i += 16) await Promise.all(Array.from({ length: 16 }, () => client.sendMessage(say('hi'))));
};
const streams = async (n) => {
  for (let i = 0; i < n; i++) {
    let events = 0;
    for await (const _ of client.sendStreamingMessage(say('stream 1000'))) events += 1;
    if (events < 1000) throw new Error(`stream ended after ${events} events`);
  }
};
await timed(200, sequential);
await timed(5, streams);
const result = {
  sendMs: await timed(1000, sequential),
  concurrentSendMs: await timed(1600, concurrent),
  streamMs: await timed(20, streams),
};
await client.close();
console.log(`ENGINE-BENCH ${JSON.stringify(result)}`);
