/**
 * Authentication challenges end to end against a real loopback agent that checks credentials: the
 * headers function gets `{ card, attempt, method, challenge? }`; a 401 (or 403 insufficient_scope)
 * with WWW-Authenticate calls it again with the challenge and repeats the request once, for any
 * method, card fetches included — not a retry, not seen by the breaker. A second refusal is a fatal
 * `http` error naming the scheme, with no credential anywhere in it.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { A2AClient, isA2AClientError, type ClientOptions, type HeadersContext, type HeadersOption, type ResilienceEvent } from '../../src/index.js';
import { recordingAgent, rpcId, v1Card, v1Message, type Answer, type Recorded, type RecordingAgent } from '../helpers/recording-agent.js';

const STALE = 'Bearer stale-token-0001';
const FRESH = 'Bearer fresh-token-0002';
const CHALLENGE = 'Bearer realm="agents", error="invalid_token", error_description="token expired"';

const agents: RecordingAgent[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

type Binding = 'JSONRPC' | 'HTTP+JSON';

/** What the agent answers a request that carries the right credentials. */
function answer(req: Recorded, binding: Binding): Answer {
  const task = { id: 't-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } };
  const streaming = binding === 'JSONRPC' ? (req.json as { method?: string }).method === 'SendStreamingMessage' : req.path.includes(':stream') || req.path.includes(':subscribe');
  const wrap = (result: object): object => (binding === 'JSONRPC' ? { jsonrpc: '2.0', id: rpcId(req), result } : result);
  if (streaming) return { sse: [wrap({ task }), wrap({ statusUpdate: { taskId: 't-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } } })] };
  const method = binding === 'JSONRPC' ? (req.json as { method?: string }).method : req.path;
  if (method === 'GetTask' || method === '/tasks/t-1') return { body: wrap(task) };
  if (method === 'GetExtendedAgentCard' || method === '/extendedAgentCard') return { body: wrap({ ...v1Card('http://x', 'extended'), description: 'for members' }) };
  return { body: wrap(v1Message('welcome')) };
}

/**
 * An agent that accepts only `FRESH` (card fetches too, when `guardCard`); a refusal is 401 with the
 * challenge (or whatever `refuse` returns).
 */
async function guardedAgent(binding: Binding, opts: { guardCard?: boolean; refuse?: (req: Recorded) => Answer } = {}): Promise<RecordingAgent> {
  const refuse = opts.refuse ?? (() => ({ status: 401, headers: { 'www-authenticate': CHALLENGE, 'content-type': 'text/plain' }, body: 'unauthorized' }));
  const agent = await recordingAgent((req, url) => {
    const isCard = req.path.startsWith('/.well-known/');
    if ((!isCard || opts.guardCard) && req.headers['authorization'] !== FRESH) return refuse(req);
    if (isCard) return { body: v1Card(url, `guarded-${binding === 'JSONRPC' ? 'rpc' : 'rest'}`, binding, { capabilities: { streaming: true, extendedAgentCard: true } }) };
    return answer(req, binding);
  });
  agents.push(agent);
  return agent;
}

/** A headers function that starts with a stale token and refreshes it when challenged; it records each call. */
function tokenSource(): { calls: HeadersContext[]; headers: HeadersOption } {
  const calls: HeadersContext[] = [];
  let token = STALE;
  return {
    calls,
    headers: (ctx) => {
      calls.push(ctx);
      if (ctx.challenge) token = FRESH;
      return { authorization: token };
    },
  };
}

async function connect(agent: RecordingAgent, options: ClientOptions): Promise<A2AClient> {
  const client = await A2AClient.connect(agent.url, options);
  clients.push(client);
  return client;
}

const hi = { message: { parts: [{ kind: 'text' as const, text: 'hi' }] } };
const drain = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe.each<Binding>(['JSONRPC', 'HTTP+JSON'])('challenge answered by the headers function (%s)', (binding) => {
  it.each([
    ['sendMessage', (c: A2AClient) => c.sendMessage(hi)],
    ['sendStreamingMessage', (c: A2AClient) => drain(c.sendStreamingMessage(hi))],
    ['getTask', (c: A2AClient) => c.getTask({ id: 't-1' })],
    ['getExtendedAgentCard', (c: A2AClient) => c.getExtendedAgentCard()],
  ] as const)('%s: refused once, repeated once with the challenge answered; not a retry', async (method, call) => {
    const agent = await guardedAgent(binding);
    const tokens = tokenSource();
    const events: ResilienceEvent[] = [];
    const client = await connect(agent, { headers: tokens.headers, onEvent: (e) => events.push(e), circuitBreaker: { consecutiveFailures: 1 } });
    tokens.calls.length = 0;
    const before = agent.requests.length;

    await expect(call(client)).resolves.toBeDefined();

    const sent = agent.requests.slice(before);
    expect(sent.map((r) => r.headers['authorization'])).toEqual([STALE, FRESH]);
    expect(tokens.calls).toEqual([
      { card: client.card, attempt: 1, method },
      { card: client.card, attempt: 1, method, challenge: { status: 401, wwwAuthenticate: CHALLENGE, challenges: [{ scheme: 'Bearer', params: { realm: 'agents', error: 'invalid_token', error_description: 'token expired' } }] } },
    ]);
    expect(events).toEqual([]);
  });

  it('a second refusal is fatal kind http naming the scheme: two requests, no loop, no credential in it, breaker untouched', async () => {
    const agent = await recordingAgent((req, url) =>
      req.path.startsWith('/.well-known/') ? { body: v1Card(url, 'refusing', binding) } : { status: 401, headers: { 'www-authenticate': CHALLENGE, 'content-type': 'application/json' }, body: { echoed: req.headers['authorization'] } },
    );
    agents.push(agent);
    const tokens = tokenSource();
    const events: ResilienceEvent[] = [];
    const client = await connect(agent, { headers: tokens.headers, retry: { maxAttempts: 5, baseDelayMs: 1 }, circuitBreaker: { consecutiveFailures: 1 }, onEvent: (e) => events.push(e) });

    for (let i = 0; i < 3; i++) {
      const before = agent.requests.length;
      const error = await client.sendMessage(hi).then(() => undefined, (e: unknown) => e);
      if (!isA2AClientError(error)) throw new Error('expected an A2AClientError');
      expect(agent.requests.length - before).toBe(2);
      expect([error.kind, error.status, error.retryable, error.attempts.length]).toEqual(['http', 401, false, 1]);
      expect(error.message).toContain('refused the request again');
      expect(error.message).toContain('Bearer (realm "agents", error "invalid_token")');
      expect(isA2AClientError(error.cause) && error.cause.status).toBe(401);
      const everything = JSON.stringify({ error: error.toJSON(), cause: isA2AClientError(error.cause) ? error.cause.toJSON() : null, stack: error.stack, events });
      expect(everything).not.toContain('stale-token-0001');
      expect(everything).not.toContain('fresh-token-0002');
    }
    expect(events.filter((e) => e.type === 'retry' || e.type === 'breaker-open')).toEqual([]);
    expect(events.filter((e) => e.type === 'give-up').map((e) => e.type === 'give-up' && e.reason)).toEqual(['auth:refused(401)', 'auth:refused(401)', 'auth:refused(401)']);
  });
});

describe('challenges: which refusals are answered', () => {
  it('403 with error="insufficient_scope" is answered (status 403); a bare 403 is not', async () => {
    let scoped = false;
    const agent = await guardedAgent('JSONRPC', {
      refuse: () => (scoped ? { status: 403, body: 'forbidden' } : { status: 403, headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="tasks:write"' }, body: 'need scope' }),
    });
    const tokens = tokenSource();
    const client = await connect(agent, { headers: tokens.headers });
    await client.sendMessage(hi);
    expect(tokens.calls.at(-1)?.challenge).toMatchObject({ status: 403, challenges: [{ scheme: 'Bearer', params: { scope: 'tasks:write' } }] });

    scoped = true;
    const before = agent.requests.length;
    const error = await client.sendMessage(hi, { headers: { authorization: STALE } }).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.status]).toEqual(['http', 403]);
    expect(agent.requests.length - before).toBe(1);
  });

  it('static headers cannot answer a challenge: one request, and the error names the scheme', async () => {
    const agent = await guardedAgent('HTTP+JSON');
    const client = await connect(agent, { headers: { authorization: STALE } });
    const before = agent.requests.length;
    const error = await client.getTask({ id: 't-1' }).then(() => undefined, (e: unknown) => e);
    expect(agent.requests.length - before).toBe(1);
    expect(isA2AClientError(error) && [error.kind, error.status, error.retryable]).toEqual(['http', 401, false]);
    expect(isA2AClientError(error) && error.message).toMatch(/\(the agent asks for authentication: Bearer \(realm "agents", error "invalid_token"\)\)$/);
    expect(JSON.stringify(isA2AClientError(error) && error.toJSON())).not.toContain('stale-token-0001');
  });

  it('a JSON-RPC error body that comes with the 401 is still a challenge; the error keeps its code', async () => {
    const agent = await guardedAgent('JSONRPC', {
      refuse: (req) => ({ status: 401, headers: { 'www-authenticate': 'Bearer' }, body: { jsonrpc: '2.0', id: rpcId(req), error: { code: -32000, message: 'no token' } } }),
    });
    const client = await connect(agent, { headers: { authorization: STALE } });
    const error = await client.sendMessage(hi).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.status, error.code]).toEqual(['http', 401, -32000]);
    expect(isA2AClientError(error) && isA2AClientError(error.cause) && error.cause.kind).toBe('json-rpc');
  });

  it('card fetches answer challenges too: connect() with card undefined, refreshCard() with the card', async () => {
    const agent = await guardedAgent('JSONRPC', { guardCard: true });
    const tokens = tokenSource();
    const client = await connect(agent, { headers: tokens.headers });
    expect(client.card.name).toBe('guarded-rpc');
    expect(tokens.calls.map((c) => [c.method, c.card, c.challenge?.status])).toEqual([
      ['getAgentCard', undefined, undefined],
      ['getAgentCard', undefined, 401],
    ]);
    await client.refreshCard();
    expect(tokens.calls.at(-1)).toEqual({ card: client.card, attempt: 1, method: 'getAgentCard' });
  });

  it('a card fetch refused twice fails connect() with kind card, status 401 and the scheme named', async () => {
    const agent = await guardedAgent('JSONRPC', { guardCard: true });
    const error = await A2AClient.connect(agent.url, { headers: () => ({ authorization: STALE }) }).then(() => undefined, (e: unknown) => e);
    expect(isA2AClientError(error) && [error.kind, error.status]).toEqual(['card', 401]);
    expect(isA2AClientError(error) && error.message).toContain('Bearer (realm "agents"');
    expect(agent.requests).toHaveLength(2);
  });

  it('the old zero-argument headers function still type-checks and runs', async () => {
    const old: () => Record<string, string> = () => ({ authorization: FRESH });
    expectTypeOf(old).toExtend<HeadersOption>();
    const agent = await guardedAgent('JSONRPC');
    const client = await connect(agent, { headers: old });
    await expect(client.sendMessage(hi)).resolves.toMatchObject({ kind: 'message' });
  });
});
