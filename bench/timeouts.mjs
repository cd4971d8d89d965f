// Timer accuracy of the transport layer: configured vs observed for connect / read / idle / total.
//
// Node 20 cannot run TypeScript, so this imports the compiled output. Build first, then run:
//   npx tsc -p tsconfig.build.json && node bench/timeouts.mjs
// (DIST=<dir> points at another output directory, e.g. one built with --outDir.)
// Only 127.0.0.1 is contacted: an http server for read/idle/total, and a TCP listener that never
// completes a TLS handshake for connect (see test/helpers/fault-server.ts for why).
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const dist = process.env.DIST ?? new URL('../dist', import.meta.url).pathname;
const load = (path) => import(pathToFileURL(resolve(dist, path)).href);
const { UndiciEngine } = await load('src/transport/undici-engine.js');
const { DEFAULT_LIMITS } = await load('src/transport/settings.js');
const { CallScope } = await load('src/transport/call-scope.js');

const RUNS = Number(process.env.RUNS ?? 20);
const CONCURRENCY = 5;
const VALUES = [50, 250, 1000];
const BIG = 60_000;

const sockets = new Set();
const http = createServer((req, res) => {
  req.resume();
  if (req.url === '/sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
  }
  // '/never': accept and stay silent.
});
http.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
const silent = createNetServer((s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
  s.on('error', () => sockets.delete(s));
  s.resume();
});
await new Promise((r) => http.listen(0, '127.0.0.1', r));
await new Promise((r) => silent.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${http.address().port}`;
const tlsUrl = `https://127.0.0.1:${silent.address().port}/`;

const engine = new UndiciEngine();
const request = (url, timeouts, deadline) => ({
  method: 'GET',
  url,
  headers: {},
  timeouts: { connectMs: BIG, readMs: BIG, streamIdleMs: BIG, ...timeouts },
  // The call's deadline, as the pipeline hands it down.
  ...(deadline === undefined ? {} : { scope: new CallScope({ deadline }) }),
  limits: DEFAULT_LIMITS,
});

/** One run: the elapsed ms from start until the expected error kind. */
const scenarios = {
  connect: async (ms) => engine.send(request(tlsUrl, { connectMs: ms })),
  read: async (ms) => engine.send(request(`${base}/never`, { readMs: ms })),
  idle: async (ms) => {
    const res = await engine.send(request(`${base}/sse`, { streamIdleMs: ms }));
    const it = res.decoded((events) => ({ items: [...events] }));
    await it.next();
    const start = performance.now();
    try {
      await it.next();
    } catch (error) {
      return { error, start };
    }
    throw new Error('stream ended');
  },
  total: async (ms) => engine.send(request(`${base}/never`, {}, performance.now() + ms)),
};
const expected = { connect: 'connect-timeout', read: 'read-timeout', idle: 'idle-timeout', total: 'deadline-exceeded' };

async function once(name, ms) {
  let start = performance.now();
  try {
    const out = await scenarios[name](ms);
    if (out?.error) {
      start = out.start;
      throw out.error;
    }
  } catch (error) {
    const took = performance.now() - start;
    if (error?.kind !== expected[name]) throw new Error(`${name}: got ${error?.kind ?? error}`);
    return took;
  }
  throw new Error(`${name}: no error`);
}

const rows = [];
for (const name of Object.keys(scenarios)) {
  for (const ms of VALUES) {
    const seen = [];
    for (let done = 0; done < RUNS; done += CONCURRENCY) {
      const batch = Array.from({ length: Math.min(CONCURRENCY, RUNS - done) }, () => once(name, ms));
      seen.push(...(await Promise.all(batch)));
    }
    seen.sort((a, b) => a - b);
    const median = seen[Math.floor(seen.length / 2)];
    const max = seen[seen.length - 1];
    const allowed = Math.max(25, ms * 0.05);
    rows.push({
      timer: name,
      configured: ms,
      runs: seen.length,
      min: seen[0].toFixed(1),
      median: median.toFixed(1),
      max: max.toFixed(1),
      'max error': (max - ms).toFixed(1),
      'within max(25ms,5%)': seen.every((t) => t >= ms - 0.5 && t - ms <= allowed) ? 'yes' : 'NO',
    });
  }
}
console.table(rows);

await engine.close();
for (const s of sockets) s.destroy();
await new Promise((r) => http.close(r));
await new Promise((r) => silent.close(r));
