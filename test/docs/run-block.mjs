// Runs one `ts` block of the docs as a reader's program: `node --import ./scripts/ts-hooks.mjs test/docs/run-block.mjs
// <block.ts>`. The names the docs take as given (test/docs/reader-names.ts: a connected `client`, an `agentUrl`, a
// `taskId`, the reader's `db`, …) are real here: a local mock agent on 127.0.0.1 and what it holds. A block that
// declares one of them itself shadows it. After the block, the reader's world is closed, and the process must
// then exit on its own: a block that leaves a server, a timer or a connection open fails (exit code 3).
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { A2AClient } from 'a2a-resilient';
import { mockAgent, replyTask, stream } from 'a2a-resilient/mocks';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: run-block.mjs <block.ts>');

// Tests contact only the loopback: a block that names another host fails at its lookup, before any packet leaves.
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  if (!LOOPBACK.has(hostname)) throw new Error(`a docs block tried to reach ${hostname}: blocks that run use the reader's names (agentUrl, url) for addresses`);
  return lookup.call(this, hostname, ...rest);
};

/** A local agent with a task, and everything else a block takes as given (`uses`: the names the block uses; only their agents start). */
async function readerWorld(uses) {
  const closers = [];
  const agentOf = (name) =>
    mockAgent({ name, version: '1.0', binding: 'JSONRPC' })
      .on('sendMessage', replyTask({ state: 'completed', artifacts: ['Sunny, 24 °C'] }))
      .on('sendStreamingMessage', stream([{ status: 'working' }, { artifact: 'Sunny, ' }, { artifact: { artifactId: 'artifact-1', parts: [{ kind: 'text', text: '24 °C' }] }, append: true }, { status: 'completed' }]));
  const agents = uses.has('targets') ? [agentOf('forecaster'), agentOf('billing'), agentOf('search')] : [agentOf('forecaster')];
  const [forecaster] = agents;
  forecaster.store.put({ kind: 'task', id: 'task-1', contextId: 'ctx-1', status: { state: 'completed' }, artifacts: [{ artifactId: 'a-1', parts: [{ kind: 'text', text: 'The Q3 report' }] }] });
  const servers = await Promise.all(agents.map((agent) => agent.listen()));
  closers.push(() => Promise.all(servers.map((server) => server.close())));
  const [agentUrl, billingUrl, searchUrl] = servers.map((server) => server.url);
  const connect = async (url) => {
    const client = await A2AClient.connect(url);
    closers.unshift(() => client.close());
    return client;
  };
  const client = uses.has('client') || uses.has('targets') ? await connect(agentUrl) : undefined;
  const otherClient = uses.has('otherClient') ? await connect(agentUrl) : undefined;
  const targets = uses.has('targets')
    ? [
        { client, input: 'Q3 revenue?' },
        { client: await connect(billingUrl), input: 'Q3 revenue?' },
        { client: await connect(searchUrl), input: 'Q3 revenue?' },
      ]
    : undefined;
  const rows = new Map();
  const names = {
    client,
    otherClient,
    agentUrl,
    url: agentUrl,
    taskId: 'task-1',
    contextId: 'ctx-1',
    token: 'reader-token-0001',
    webhookSecret: 'reader-webhook-secret-0001',
    targets,
    db: { save: async (row) => void rows.set(row.taskId, row) },
    store: { get: async (key) => rows.get(key) ?? '{}', set: async (key, value) => void rows.set(key, value) },
    key: 'conversation-1',
    tokens: { get: async () => 'reader-token-0001' },
    handle: (error) => console.log(`handled: ${error.type}`),
    write: (text) => process.stdout.write(text),
    log: () => undefined,
    goodEnough: (event) => event.done === true,
  };
  return { names, close: async () => { for (const close of closers) await close(); } };
}

const source = readFileSync(file, 'utf8');
const world = await readerWorld(new Set(['client', 'otherClient', 'targets'].filter((name) => new RegExp(`\\b${name}\\b`).test(source))));
Object.assign(globalThis, world.names);
let failed;
try {
  await import(pathToFileURL(file).href);
} catch (error) {
  failed = error;
}
await world.close();
if (failed !== undefined) {
  console.error(failed);
  process.exit(1);
}
setTimeout(() => {
  console.error('the block left something open (a server, a timer, a connection): its process did not exit');
  process.exit(3);
}, 5_000).unref();
