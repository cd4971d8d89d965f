// The runtime smoke test: what a user relies on, run in every runtime (Node, Bun, Deno, workerd,
// Chromium) against loopback mock agents the Node harness started (./agents.mjs). Plain ESM that
// imports the built package as a user's code would, so it runs unchanged where no TypeScript, no
// `node:*` and no test runner exists. Each check asserts the actual outcome (kind, code, texts) and
// reports `{ name, ok, ms, detail }`; one failing check does not stop the others.

import { A2AClient, A2AClientError, isTerminalError } from 'a2a-resilient';

/** The checks, in the order they run. */
export const CHECKS = ['connect', 'card-validation', 'send-message', 'stream-resume', 'retry-503', 'deadline', 'abort', 'task-not-found', 'failed-task'];

/** What this code runs on, as the runtime says it (for the report's first line). */
export function runtimeName() {
  const g = globalThis;
  if (typeof g.Bun === 'object') return `bun ${g.Bun.version}`;
  if (typeof g.Deno === 'object') return `deno ${g.Deno.version.deno}`;
  if (typeof g.navigator === 'object' && g.navigator.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (typeof g.process === 'object' && g.process.versions?.node) return `node ${g.process.versions.node}`;
  return typeof g.navigator === 'object' ? g.navigator.userAgent : 'unknown';
}

function assert(condition, what) {
  if (!condition) throw new Error(`expected ${what}`);
}

function show(value) {
  return JSON.stringify(value);
}

/** The rejection of `promise` (which must reject with an A2AClientError), or a thrown assertion. */
async function rejection(promise) {
  try {
    const value = await promise;
    throw new Error(`expected a rejection, got ${show(value)?.slice(0, 200)}`);
  } catch (error) {
    if (!(error instanceof A2AClientError)) throw error;
    return error;
  }
}

const say = (text) => ({ message: { role: 'user', parts: [{ kind: 'text', text }] } });

function textOf(result) {
  const parts = result.kind === 'message' ? result.parts : (result.status?.message?.parts ?? []);
  return parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
}

/**
 * Runs every check against the agents (`agents[name]` = a base URL, see ./agents.mjs); `clientOptions`
 * are passed to every client (e.g. `{ fetch }` to force the fetch engine). Never throws: each check's
 * failure is in its result.
 */
export async function runSmoke(agents, clientOptions = {}) {
  const clients = [];
  const connect = async (url, extra = {}) => {
    const client = await A2AClient.connect(url, { ...clientOptions, ...extra });
    clients.push(client);
    return client;
  };
  const checks = {
    // Discovery: the card is fetched (cross-origin in a browser), validated, and names the agent.
    connect: async () => {
      const client = await connect(agents.basic);
      assert(client.card.name === 'smoke-basic', `card name smoke-basic, got ${show(client.card.name)}`);
      assert(client.protocol.version === '1.0' && client.protocol.binding === 'JSONRPC', `v1.0 JSON-RPC picked from the card, got ${client.protocol.version} ${client.protocol.binding}`);
      return `card ${client.card.name}, ${client.protocol.binding} ${client.protocol.version}`;
    },
    // A card that fails validation is a typed error naming the field, not a crash.
    'card-validation': async () => {
      const error = await rejection(A2AClient.connect(agents.brokenCard, { ...clientOptions, retry: false }));
      assert(error.kind === 'card', `kind card, got ${error.kind}: ${error.message}`);
      assert(typeof error.field === 'string' && error.field.includes('name'), `field naming 'name', got ${show(error.field)}`);
      return `${error.kind} (field ${error.field})`;
    },
    'send-message': async () => {
      const client = await connect(agents.basic);
      const result = await client.sendMessage(say('hello'));
      assert(textOf(result) === 'hello back', `text 'hello back', got ${show(textOf(result))}`);
      return `${result.kind}: ${textOf(result)}`;
    },
    // The stream drops after two events; the client resubscribes and delivers the rest once.
    'stream-resume': async () => {
      const client = await connect(agents.stream, { retry: { baseDelayMs: 10 } });
      let last;
      const texts = [];
      for await (const event of client.stream('go', { timeouts: { totalMs: 10_000 } })) {
        if (event.error) throw new Error(`stream error event: ${event.error.type} ${event.error.code ?? ''} ${event.error.message}`);
        if (event.partial && event.text) texts.push(event.text);
        last = event;
      }
      assert(last?.done === true && last.state === 'completed', `a completed final event, got ${show(last?.state)}`);
      assert(last.text === 'one two', `final text 'one two', got ${show(last.text)}`);
      return `chunks ${show(texts)}, final ${show(last.text)}`;
    },
    // The first send gets a 503 with Retry-After: 1; the client waits it out and sends again.
    'retry-503': async () => {
      const client = await connect(agents.busy);
      const started = Date.now();
      const result = await client.sendMessage(say('busy?'), { timeouts: { totalMs: 10_000 } });
      const waited = Date.now() - started;
      assert(textOf(result) === 'after the wait', `text 'after the wait', got ${show(textOf(result))}`);
      assert(waited >= 900, `the 1 s Retry-After waited out, took ${waited} ms`);
      return `answered after ${waited} ms`;
    },
    // The agent never answers: one deadline over the call ends it on time.
    deadline: async () => {
      const client = await connect(agents.hang);
      const started = Date.now();
      const error = await rejection(client.sendMessage(say('anyone?'), { timeouts: { totalMs: 300 } }));
      const took = Date.now() - started;
      assert(error.kind === 'deadline-exceeded', `kind deadline-exceeded, got ${error.kind}: ${error.message}`);
      assert(took >= 250 && took < 3_000, `ended near 300 ms, took ${took} ms`);
      return `${error.kind} after ${took} ms`;
    },
    abort: async () => {
      const client = await connect(agents.hang);
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 150);
      const error = await rejection(client.sendMessage(say('never mind'), { signal: controller.signal, timeouts: { totalMs: 10_000 } }));
      const took = Date.now() - started;
      assert(error.kind === 'aborted', `kind aborted, got ${error.kind}: ${error.message}`);
      assert(took < 3_000, `ended soon after the abort, took ${took} ms`);
      return `${error.kind} after ${took} ms`;
    },
    // A JSON-RPC error from the agent: typed, with its code and A2A name.
    'task-not-found': async () => {
      const client = await connect(agents.basic);
      const error = await rejection(client.getTask({ id: 'no-such-task' }, { retry: false }));
      assert(error.kind === 'json-rpc' && error.code === -32001 && error.a2aName === 'TaskNotFound', `json-rpc -32001 TaskNotFound, got ${error.kind} ${error.code} ${error.a2aName}`);
      return `${error.kind} ${error.code} ${error.a2aName}`;
    },
    // A task that failed with a structured error: the event API's error event carries its type and code.
    'failed-task': async () => {
      const client = await connect(agents.failing);
      const events = await client.invoke('charge it');
      const last = events.at(-1);
      assert(last !== undefined && isTerminalError(last), `a terminal error event, got ${show(last?.object)}`);
      assert(last.state === 'failed' && last.error.type === 'invalid_request_error' && last.error.code === 'card_declined', `failed invalid_request_error card_declined, got ${last.state} ${last.error.type} ${last.error.code}`);
      assert(last.error.message === 'The card was declined', `the agent's message, got ${show(last.error.message)}`);
      return `${last.state}: ${last.error.type} ${last.error.code}`;
    },
  };
  const results = [];
  for (const name of CHECKS) {
    const started = Date.now();
    try {
      const detail = await checks[name]();
      results.push({ name, ok: true, ms: Date.now() - started, detail });
    } catch (error) {
      const detail = error instanceof A2AClientError ? `A2AClientError ${error.kind}: ${error.message}` : `${error?.name}: ${error?.message}`;
      results.push({ name, ok: false, ms: Date.now() - started, detail });
    }
  }
  for (const client of clients.splice(0)) {
    try {
      await client.close();
    } catch (error) {
      results.push({ name: 'close', ok: false, ms: 0, detail: `${error?.name}: ${error?.message}` });
    }
  }
  return { runtime: runtimeName(), results };
}
