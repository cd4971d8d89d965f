/**
 * One cold start, in a fresh process: `node bench/cold-start-child.mjs <ours|official|raw> <import|first> [baseUrl]`.
 * `import`: the time to import the client's entry and RSS after it. `first`: process start (Node's
 * `performance.timeOrigin`) to the first `sendMessage` answer from the agent at `baseUrl` (card
 * fetch included, as a CLI or a serverless coordinator pays it), and RSS then. Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';

const [contender, mode, baseUrl] = process.argv.slice(2);

async function load() {
  if (contender === 'ours') return import('a2a-resilient');
  if (contender === 'official') return import('@a2a-js/sdk/client');
  return import('undici');
}

async function firstAnswer(mod) {
  if (contender === 'ours') {
    const client = await mod.A2AClient.connect(baseUrl);
    const r = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    const answered = performance.now();
    if (!r) throw new Error('no answer');
    // After the measurement: the other contenders leave their connections open.
    await client.close();
    return answered;
  }
  if (contender === 'official') {
    const client = await new mod.ClientFactory().createFromUrl(baseUrl);
    const r = await client.sendMessage({ message: { messageId: randomUUID(), role: 1, parts: [{ content: { $case: 'text', value: 'hi' } }] } });
    const answered = performance.now();
    if (!r) throw new Error('no answer');
    return answered;
  }
  // raw: what a hand-written client does — GET the card, POST SendMessage to its JSON-RPC URL.
  const card = await (await mod.request(`${baseUrl}/.well-known/agent-card.json`)).body.json();
  const rpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC').url;
  const { statusCode, body } = await mod.request(rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } } }),
  });
  const r = await body.json();
  const answered = performance.now();
  if (statusCode !== 200 || !r.result) throw new Error('no answer');
  return answered;
}

const t0 = performance.now();
const mod = await load();
const importMs = performance.now() - t0;
const out = { contender, mode, importMs, rss: 0 };
if (mode === 'first') {
  out.firstMs = await firstAnswer(mod);
}
out.rss = process.memoryUsage().rss / 1048576;
process.stdout.write(`${JSON.stringify(out)}\n`);
// Pools may keep sockets open: leave at once, the measurement is done.
process.exit(0);
