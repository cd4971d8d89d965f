// The loopback agents the runtime smoke test (./smoke.mjs) talks to, started by the Node harness with
// the package's own mocks (a2a-resilient/mocks, as a user's tests would), each scripted for one check.
// CORS is on, so a page served from another loopback port can fetch their cards and call them.

import { mockAgent, stream, httpError, failFirst, replyText, hang, failedTask } from 'a2a-resilient/mocks';

/**
 * Starts every agent on 127.0.0.1. Resolves `{ urls, agents, close }`: `urls` is what ./smoke.mjs
 * takes, `agents` the MockAgents (their recorded calls), `close()` stops them all.
 */
export async function startAgents() {
  const make = (name, options = {}) => mockAgent({ name, version: '1.0', binding: 'JSONRPC', ...options });
  const agents = {
    basic: make('smoke-basic').on('sendMessage', replyText('hello back')),
    // The card loses its name: validation must reject it, naming the field.
    brokenCard: make('smoke-broken-card', { card: ({ name: _dropped, ...rest }) => rest }),
    stream: make('smoke-stream').on(
      'sendStreamingMessage',
      stream([{ status: 'working' }, { artifact: 'one ' }, { artifact: { artifactId: 'artifact-1', parts: [{ kind: 'text', text: 'two' }] }, append: true }, { status: 'completed' }], { dropAfter: 2 }),
    ),
    busy: make('smoke-busy').on('sendMessage', failFirst(1, httpError(503, { retryAfter: 1 }), replyText('after the wait'))),
    hang: make('smoke-hang').on('sendMessage', hang()),
    failing: make('smoke-failing').on('sendMessage', failedTask({ error_type: 'invalid_request_error', error_code: 'card_declined', error_message: 'The card was declined' })),
  };
  const servers = [];
  const urls = {};
  try {
    for (const [key, agent] of Object.entries(agents)) {
      const server = await agent.listen({ cors: true });
      servers.push(server);
      urls[key] = server.url;
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
  return { urls, agents, close: () => Promise.all(servers.map((s) => s.close())).then(() => undefined) };
}

/**
 * Which HTTP engine the client used, as the agent saw it: the undici engine sends no `user-agent`;
 * Node's, Bun's, Deno's and a browser's fetch send their own (workerd's sends none either: there the
 * bundle itself shows there is no undici, see bundle-check.mjs).
 */
export function engineSeen(agents) {
  const call = agents.basic.callsOf('sendMessage')[0];
  if (call === undefined) return 'unknown (no send reached the agent)';
  const ua = call.headers['user-agent'];
  return ua === undefined ? 'undici (no user-agent)' : `fetch (user-agent: ${ua})`;
}

/**
 * What the agents saw, checked after a run: the stream was resumed by a resubscribe and never sent
 * twice, the 503 was answered by a second send. Returns failed results in the smoke's shape (none when
 * all is well); `ran` are the names of the checks that passed in the runtime.
 */
export function agentSideFailures(agents, ran) {
  const failures = [];
  if (ran.includes('stream-resume')) {
    const sends = agents.stream.callsOf('sendStreamingMessage').length;
    const resubscribes = agents.stream.callsOf('subscribeToTask').length;
    if (sends !== 1 || resubscribes < 1) failures.push({ name: 'stream-resume (agent side)', ok: false, ms: 0, detail: `expected 1 send and ≥ 1 resubscribe, saw ${sends} and ${resubscribes}` });
  }
  if (ran.includes('retry-503')) {
    const sends = agents.busy.callsOf('sendMessage').length;
    if (sends !== 2) failures.push({ name: 'retry-503 (agent side)', ok: false, ms: 0, detail: `expected 2 sends (503, then the answer), saw ${sends}` });
  }
  return failures;
}
