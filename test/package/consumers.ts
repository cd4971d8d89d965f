// Programs a user of the published package would write, run or type-checked by pack.test.ts inside a
// fresh project where the tarball is installed.

const mocksFailure = `(e) => ({ code: e.code, message: e.message })`;

/** ESM: every entry point through import; without msw and redis their errors are reported. */
export const SMOKE_ESM = `
const sdk = await import('a2a-resilient');
const mocks = await import('a2a-resilient/mocks').then(() => 'loaded', ${mocksFailure});
const redis = await import('a2a-resilient/redis').then(() => 'loaded', ${mocksFailure});
const push = typeof (await import('a2a-resilient/push')).pushReceiver;
const aiSdk = await import('a2a-resilient/ai-sdk').then(() => 'loaded', ${mocksFailure});
const langchain = await import('a2a-resilient/langchain').then(() => 'loaded', ${mocksFailure});
const a2aJs = await import('a2a-resilient/a2a-js');
const v1 = await a2aJs.resilientTransports()[0].create('http://127.0.0.1:1/rpc', {}).then(() => 'created', ${mocksFailure});
const badCard = await a2aJs.resilientTransportsV03()[0].create('http://127.0.0.1:1/rpc', {}).then(() => 'created', (e) => e instanceof sdk.A2AClientError && e.kind);
console.log(JSON.stringify({ client: typeof sdk.A2AClient, fanOut: typeof sdk.fanOut, mocks, redis, push, aiSdk, langchain, v03: a2aJs.resilientTransportsV03().map((f) => f.protocolName), v1, badCard }));
`;

/** CommonJS: every entry point through require(). */
export const SMOKE_CJS = `
const sdk = require('a2a-resilient');
let mocks = 'loaded';
try { require('a2a-resilient/mocks'); } catch (e) { mocks = (${mocksFailure})(e); }
let redis = 'loaded';
try { require('a2a-resilient/redis'); } catch (e) { redis = (${mocksFailure})(e); }
const push = typeof require('a2a-resilient/push').pushReceiver;
let aiSdk = 'loaded';
try { require('a2a-resilient/ai-sdk'); } catch (e) { aiSdk = (${mocksFailure})(e); }
let langchain = 'loaded';
try { require('a2a-resilient/langchain'); } catch (e) { langchain = (${mocksFailure})(e); }
const a2aJs = require('a2a-resilient/a2a-js');
a2aJs.resilientTransports()[0].create('http://127.0.0.1:1/rpc', {}).then(() => 'created', ${mocksFailure}).then(async (v1) => {
  const badCard = await a2aJs.resilientTransportsV03()[0].create('http://127.0.0.1:1/rpc', {}).then(() => 'created', (e) => e instanceof sdk.A2AClientError && e.kind);
  console.log(JSON.stringify({ client: typeof sdk.A2AClient, fanOut: typeof sdk.fanOut, mocks, redis, push, aiSdk, langchain, v03: a2aJs.resilientTransportsV03().map((f) => f.protocolName), v1, badCard }));
});
`;

/**
 * The Redis store once \`redis\` is installed: made from one entry point, accepted by a client of the
 * other (one module instance whichever way each was loaded), degraded against a port where nothing
 * listens, closed. No Redis server is needed.
 */
const redisStore = (load: string) => `
${load}
async function main() {
  const shared = redisStateStore({ url: 'redis://127.0.0.1:1', timeoutMs: 200 });
  const card = { name: 'packed', description: 'd', version: '1', supportedInterfaces: [{ url: 'http://127.0.0.1:9/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] };
  const client = new A2AClient(card, { sharedState: shared });
  const t0 = Date.now();
  while (shared.status !== 'degraded' && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
  const degraded = shared.status;
  await client.close();
  await shared.close();
  console.log(JSON.stringify({ factory: typeof redisStateStore, degraded, closed: shared.status }));
}
`;

export const REDIS_CJS = `${redisStore(`const { A2AClient } = require('a2a-resilient');
const { redisStateStore } = require('a2a-resilient/redis');`)}
main().catch((error) => { console.error(error); process.exitCode = 1; });
`;

export const REDIS_ESM = `${redisStore(`import { A2AClient } from 'a2a-resilient';
import { redisStateStore } from 'a2a-resilient/redis';`)}
await main();
`;

/** A whole call: a mock agent on a loopback port, a client that connects and invokes it. */
const roundTrip = (load: string, implementation: string) => `
${load}
async function main() {
  const agent = mockAgent({ name: 'packed', version: '1.0', binding: 'JSONRPC' });
  agent.reply(replyText('hello from the tarball'));
  const server = await agent.listen();
  try {
    const client = await A2AClient.connect(server.url, { timeouts: { totalMs: 10000 } });
    const events = await client.invoke('hi');
    await client.close();
    const sameExports = Object.keys(mocks).sort().join() === Object.keys(${implementation}).sort().join();
    console.log(JSON.stringify({ texts: events.filter((e) => e.done && !e.error).map((e) => e.text), sameExports }));
  } finally {
    await server.close();
  }
}
`;

export const ROUND_TRIP_CJS = `${roundTrip(
  `const { A2AClient } = require('a2a-resilient');
const mocks = require('a2a-resilient/mocks');
const { mockAgent, replyText } = mocks;`,
  `require('./node_modules/a2a-resilient/dist/mocks/index.js')`,
)}
main().catch((error) => { console.error(error); process.exitCode = 1; });
`;

export const ROUND_TRIP_ESM = `${roundTrip(
  `import { A2AClient } from 'a2a-resilient';
import * as mocks from 'a2a-resilient/mocks';
const { mockAgent, replyText } = mocks;`,
  `await import('./node_modules/a2a-resilient/dist/mocks/index.js')`,
)}
await main();
`;

/**
 * An ES module consumer. Its @ts-expect-error lines fail to compile if the types did not resolve (an
 * untyped import would be \`any\` and accept them).
 */
export const CONSUMER_ESM = `
import { A2AClient, A2AClientError, fanOut, isTerminalError, type AgentEvent, type SharedState } from 'a2a-resilient';
import { mockAgent, replyText, type MockServer } from 'a2a-resilient/mocks';
import { redisStateStore, type RedisStateStoreOptions } from 'a2a-resilient/redis';
import { pushReceiver, type PushReceiver } from 'a2a-resilient/push';

export async function ask(server: MockServer): Promise<string[]> {
  const client: A2AClient = await A2AClient.connect(server.url, { timeouts: { totalMs: 1000 } });
  const events: AgentEvent[] = await client.invoke('hi');
  const { ok } = await fanOut([{ client, input: 'hi' }], { minResults: 1, totalMs: 1000 });
  return [...events, ...ok.flatMap((r) => r.events)].filter((e) => !isTerminalError(e)).map((e) => e.text ?? '');
}

export function kind(error: unknown): string | undefined {
  return error instanceof A2AClientError ? error.kind : undefined;
}

export const agent = mockAgent({ name: 'typed', version: '0.3', binding: 'HTTP+JSON' }).reply(replyText('ok'));
// @ts-expect-error 'nope' is not an error kind
export const wrongKind: A2AClientError['kind'] = 'nope';
// @ts-expect-error version is '1.0' or '0.3'
mockAgent({ name: 'typed', version: '2', binding: 'JSONRPC' });

export function fleet(url: string, options: RedisStateStoreOptions = {}): Promise<A2AClient> {
  const shared: SharedState = redisStateStore({ ...options, url, prefix: 'a2a:' });
  return A2AClient.connect(url, { sharedState: shared });
}
// @ts-expect-error sharedState is a store from a2a-resilient/redis, not a URL
export const notAStore = new A2AClient({}, { sharedState: 'redis://127.0.0.1:6379' });

export const receiver: PushReceiver = pushReceiver({ maxBodyBytes: 65536 });
export const handled: Promise<Response> = receiver.handleRequest(new Request('http://127.0.0.1/push', { method: 'POST' }));
// @ts-expect-error auth is 'token', a JWT setting or a function
pushReceiver({ auth: 'basic' });
`;

/** A CommonJS TypeScript consumer: \`import x = require()\` of both entry points (require(esm) under nodenext). */
export const CONSUMER_CTS = `
import sdk = require('a2a-resilient');
import mocks = require('a2a-resilient/mocks');
import redis = require('a2a-resilient/redis');
import push = require('a2a-resilient/push');

export async function ask(server: mocks.MockServer): Promise<sdk.AgentEvent[]> {
  const client = await sdk.A2AClient.connect(server.url);
  return client.invoke('hi');
}
export const agent: mocks.MockAgent = mocks.mockAgent({ name: 'typed', version: '1.0', binding: 'JSONRPC' });
// @ts-expect-error 'nope' is not an error kind
export const wrongKind: sdk.A2AErrorKind = 'nope';
export const shared: sdk.SharedState = redis.redisStateStore({ url: 'redis://127.0.0.1:6379' });
export const receiver: push.PushReceiver = push.pushReceiver();
module.exports = { ask, agent, shared, receiver };
`;
