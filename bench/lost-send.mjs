/**
 * What finding out a send's fate costs, and the choice for long blocking sends (issue 35), over real
 * loopback sockets against a v1.0 JSON-RPC agent in this process that keeps its tasks (as A2A servers
 * do): `node bench/lost-send.mjs` after `npm run build`. Not part of `npm run bench` (its rows are
 * latencies of whole calls, dominated by the agent's own work and the SDK's waits, not client CPU).
 *
 * Rows (median of `BENCH_LOST_N` calls each, default 40):
 * - quick task (5 ms of work): a blocking `sendMessage`, vs `blocking: false` + `waitForTask` — what
 *   sending every long-deadline send non-blocking would cost each quick send;
 * - long task (600 ms of work, `readMs` 200): a blocking `sendMessage` (read timeout → lookup → found →
 *   wait), vs `blocking: false` + `waitForTask` — latency over the work, and requests per call;
 * - a send cut after the agent ran it (found) and before (absent): latency and requests per call.
 */
import { createServer } from 'node:http';
import { median } from './stats.mjs';

const N = Number(process.env.BENCH_LOST_N ?? 40);
const sdk = await import('../dist/src/index.js');

/** The agent: tasks kept with their history; `work <ms>` completes after that long; `cut-after` / `cut-before` drop the connection once. */
async function startAgent() {
  const tasks = new Map();
  const counts = { requests: 0 };
  const seen = new Set();
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    counts.requests++;
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(card));
    }
    const rpc = JSON.parse(body);
    const reply = (result) => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));
    };
    const fail = (code, message) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, error: { code, message } }));
    };
    switch (rpc.method) {
      case 'SendMessage': {
        const message = rpc.params.message;
        const text = message.parts[0].text;
        const [verb, arg] = text.split(' ');
        const first = !seen.has(message.messageId);
        seen.add(message.messageId);
        if (verb === 'cut-before' && first) return res.socket.destroy();
        const id = `t-${message.messageId}`;
        const task = { id, contextId: `c-${id}`, status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() }, history: [message] };
        tasks.set(id, task);
        const workMs = verb === 'work' ? Number(arg) : 1;
        const done = new Promise((resolve) =>
          setTimeout(() => {
            task.status = { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() };
            task.artifacts = [{ artifactId: 'a', parts: [{ text: 'done' }] }];
            resolve();
          }, workMs),
        );
        if (verb === 'cut-after' && first) return res.socket.destroy();
        if (rpc.params.configuration?.returnImmediately === true) return reply({ task });
        await done;
        return reply({ task });
      }
      case 'GetTask': {
        const task = tasks.get(rpc.params.id);
        return task ? reply(task) : fail(-32001, 'no such task');
      }
      case 'ListTasks': {
        const since = Date.parse(rpc.params.statusTimestampAfter ?? '1970-01-01T00:00:00Z');
        const listed = [...tasks.values()].filter((t) => Date.parse(t.status.timestamp) > since).slice(-100).reverse();
        return reply({ tasks: listed, nextPageToken: '', pageSize: 100, totalSize: listed.length });
      }
      default:
        return fail(-32601, 'not here');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'bench-ledger', description: 'bench', version: '1.0.0',
    supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: false }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: [] }],
  };
  return { url, counts, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

const msg = (text) => ({ message: { parts: [{ kind: 'text', text }] } });

async function row(name, agent, call) {
  const times = [];
  const before = agent.counts.requests;
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  const perCall = (agent.counts.requests - before) / N;
  return { name, ms: median(times), requests: perCall };
}

const agent = await startAgent();
const client = await sdk.A2AClient.connect(agent.url, { retry: { baseDelayMs: 50, budget: false }, timeouts: { readMs: 200, totalMs: 10_000 }, onEvent: process.env.BENCH_LOST_DEBUG ? (e) => console.error(e.type, e.outcome ?? e.reason ?? '', e.requests ?? '') : undefined });
const waitOn = async (text) => {
  const task = await client.sendMessage({ ...msg(text), configuration: { blocking: false } });
  return client.waitForTask(task.id);
};
for (let i = 0; i < 10; i++) await client.sendMessage(msg('work 1'));
const rows = [
  await row('quick task (5 ms): blocking sendMessage', agent, () => client.sendMessage(msg('work 5'))),
  await row('quick task (5 ms): blocking: false + waitForTask', agent, () => waitOn('work 5')),
  await row('long task (600 ms, readMs 200): blocking sendMessage (lookup → found → wait)', agent, () => client.sendMessage(msg('work 600'))),
  await row('long task (600 ms): blocking: false + waitForTask', agent, () => waitOn('work 600')),
  await row('cut after the agent ran it (found), 1 ms of work', agent, () => client.sendMessage(msg('cut-after'))),
];
rows.push(await row('cut before the agent got it (absent → resent), 1 ms of work', agent, () => client.sendMessage(msg('cut-before'))));
await client.close();
await agent.close();
console.log('| row | median ms per call | agent requests per call |\n|---|--:|--:|');
for (const r of rows) console.log(`| ${r.name} | ${r.ms.toFixed(1)} | ${r.requests.toFixed(2)} |`);
