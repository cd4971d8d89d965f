// Entry of the smoke test for runtimes that run a script (Node, Bun, Deno): the agents' URLs come as
// the first argument (JSON), the engine as the second (`default`, or `fetch` for `{ fetch: globalThis.fetch }`);
// the result is printed as one JSON line after a marker, for the harness (./run.mjs) to read.
import { runSmoke } from './smoke.mjs';

const args = typeof globalThis.Deno === 'object' ? globalThis.Deno.args : process.argv.slice(2);
const urls = JSON.parse(args[0]);
const options = args[1] === 'fetch' ? { fetch: globalThis.fetch.bind(globalThis) } : {};
const report = await runSmoke(urls, options);
console.log(`SMOKE-RESULT ${JSON.stringify(report)}`);
