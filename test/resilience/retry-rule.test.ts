/**
 * `retry.shouldRetry`, the user's own rule on the client's retry policy: asked after the built-in
 * verdict for every failure of every loop — a unary send, a unary read, a stream's resume round, a
 * poll of a task, `waitForTask` — against loopback mock agents. A vendor code the SDK does not know
 * (−32050 "overloaded") becomes retryable with one option; a failure the SDK would repeat is not,
 * when the rule says so; the deadline and `maxAttempts` still bound what the rule allows.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2AClient, isA2AClientError, type A2AClientError, type ClientOptions, type RetryContext, type RetryRule } from '../../src/index.js';
import { failFirst, httpError, jsonRpcError, mockAgent, replyText, stream, type MockAgent, type Scenario } from '../../mocks/index.js';
import { uniqueName } from './e2e-setup.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const OVERLOADED = -32050;
const overloaded = jsonRpcError(OVERLOADED, 'Overloaded, try again shortly');

/** The vendor rule of the docs' recipe: −32050 means overloaded, retry after a short while. */
function vendorRule(seen: RetryContext[], delayMs = 5): RetryRule {
  return (ctx) => {
    seen.push(ctx);
    return ctx.error.kind === 'json-rpc' && ctx.error.code === OVERLOADED ? { delayMs } : undefined;
  };
}

/** A v1.0 JSON-RPC mock agent with a name no other test uses. */
function agentNamed(prefix: string, streaming = true): MockAgent {
  return mockAgent({ name: uniqueName(prefix), version: '1.0', binding: 'JSONRPC', streaming });
}

async function serve(agent: MockAgent, options: ClientOptions): Promise<A2AClient> {
  const server = await agent.listen();
  cleanups.push(server.close);
  const client = await A2AClient.connect(server.url, { circuitBreaker: false, ...options, retry: { baseDelayMs: 5, budget: false, ...(options.retry || {}) } });
  cleanups.unshift(() => client.close());
  return client;
}

async function failure(p: Promise<unknown>): Promise<A2AClientError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isA2AClientError(error)) throw new Error(`expected an A2AClientError, got ${String(error)}`);
  return error;
}

const completedTask: Scenario = (ctx) => ({ type: 'reply', result: { kind: 'task', id: ctx.taskId ?? 'task-x', contextId: 'ctx-x', status: { state: 'completed' } } });

describe('unary send (sendMessage)', () => {
  it('a vendor code the SDK calls fatal is retried when the rule says so; without it, one attempt', async () => {
    const plain = agentNamed('rule-send-plain').on('sendMessage', failFirst(1, overloaded, replyText('ok')));
    const without = await serve(plain, {});
    const error = await failure(without.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }));
    expect(error).toMatchObject({ kind: 'json-rpc', code: OVERLOADED, retryable: false });
    expect(plain.callsOf('sendMessage')).toHaveLength(1);

    const seen: RetryContext[] = [];
    const agent = agentNamed('rule-send').on('sendMessage', failFirst(1, overloaded, replyText('ok')));
    const client = await serve(agent, { retry: { shouldRetry: vendorRule(seen) } });
    const result = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    expect(result).toMatchObject({ kind: 'message' });
    const sends = agent.callsOf('sendMessage');
    expect(sends).toHaveLength(2);
    // The repeat is the same message (same messageId): the agent said to repeat it.
    expect(JSON.stringify(sends[1]?.params)).toBe(JSON.stringify(sends[0]?.params));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'sendMessage', attempt: 1, sent: true, card: { name: agent.name }, verdict: { retry: false, transient: false, ambiguous: false, reason: `code:${OVERLOADED}` } });
  });

  it('a refusal the SDK would repeat is not, when the rule says never to repeat sends', async () => {
    const agent = agentNamed('rule-no-send').on('sendMessage', failFirst(1, httpError(503), replyText('ok')));
    const seen: RetryContext[] = [];
    const client = await serve(agent, {
      retry: {
        shouldRetry: (ctx) => {
          seen.push(ctx);
          return ctx.method === 'sendMessage' ? false : undefined;
        },
      },
    });
    const error = await failure(client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }));
    expect(error).toMatchObject({ kind: 'http', status: 503, retryable: true });
    expect(agent.callsOf('sendMessage')).toHaveLength(1);
    expect(seen[0]?.verdict).toMatchObject({ retry: true, reason: 'http:503:refused' });
  });

  it('what the rule allows stays within maxAttempts and the deadline', async () => {
    const agent = agentNamed('rule-bounds').on('sendMessage', overloaded);
    const always: RetryRule = () => true;
    const client = await serve(agent, { retry: { maxAttempts: 3, shouldRetry: always } });
    const error = await failure(client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }));
    expect(error).toMatchObject({ kind: 'json-rpc', code: OVERLOADED, retryable: true });
    expect(error.attempts).toHaveLength(3);
    expect(agent.callsOf('sendMessage')).toHaveLength(3);

    const slow = await serve(agentNamed('rule-deadline').on('getTask', overloaded), { retry: { shouldRetry: () => ({ delayMs: 60_000 }) } });
    const started = performance.now();
    const late = await failure(slow.getTask({ id: 't' }, { timeouts: { totalMs: 2_000 } }));
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(late.kind).toBe('deadline-exceeded');
  });

  it('a rule that throws keeps the built-in verdict and warns', async () => {
    const warned = vi.fn();
    process.on('warning', warned);
    try {
      const agent = agentNamed('rule-throws').on('sendMessage', failFirst(1, httpError(503), replyText('ok')));
      const client = await serve(agent, {
        retry: {
          shouldRetry: () => {
            throw new TypeError('bug in the rule');
          },
        },
      });
      await expect(client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } })).resolves.toMatchObject({ kind: 'message' });
      expect(agent.callsOf('sendMessage')).toHaveLength(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warned.mock.calls.some(([w]) => (w as { code?: string }).code === 'A2A_RESILIENT_RETRY_RULE')).toBe(true);
    } finally {
      process.off('warning', warned);
    }
  });
});

describe('unary read (getTask)', () => {
  it('the rule retries a vendor code on a read, and a per-call retry carries its own rule', async () => {
    const agent = agentNamed('rule-read').on('getTask', failFirst(1, overloaded, completedTask));
    const seen: RetryContext[] = [];
    const client = await serve(agent, {});
    await expect(client.getTask({ id: 'task-1' }, { retry: { shouldRetry: vendorRule(seen) } })).resolves.toMatchObject({ status: { state: 'completed' } });
    expect(agent.callsOf('getTask')).toHaveLength(2);
    expect(seen[0]).toMatchObject({ method: 'getTask', attempt: 1, sent: true });
  });

  it('sent is false for a request that never left (connection refused)', async () => {
    const agent = agentNamed('rule-refused');
    const seen: RetryContext[] = [];
    const client = await serve(agent, { retry: { maxAttempts: 2, shouldRetry: (ctx) => void seen.push(ctx) } });
    await cleanups.pop()?.();
    const error = await failure(client.getTask({ id: 't' }));
    expect(error.kind).toBe('connection');
    expect(seen[0]).toMatchObject({ method: 'getTask', sent: false, verdict: { retry: true, reason: 'transport:before-send' } });
  });
});

describe('stream resume round (subscribeToTask)', () => {
  const steps = [{ status: 'working' as const }, { artifact: 'one ' }, { artifact: { artifactId: 'artifact-1', parts: [{ kind: 'text' as const, text: 'two' }] }, append: true }, { status: 'completed' as const }];

  it('a resubscribe answered with a vendor code: the stream fails without the rule, completes with it', async () => {
    const plain = agentNamed('rule-resume-plain').on('sendStreamingMessage', stream(steps, { dropAfter: 2 }));
    plain.once('subscribeToTask', overloaded);
    const without = await serve(plain, {});
    const error = await failure(collect(without.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } })));
    expect(error).toMatchObject({ kind: 'json-rpc', code: OVERLOADED });
    expect(plain.callsOf('subscribeToTask')).toHaveLength(1);

    const agent = agentNamed('rule-resume').on('sendStreamingMessage', stream(steps, { dropAfter: 2 }));
    agent.once('subscribeToTask', overloaded);
    const seen: RetryContext[] = [];
    const client = await serve(agent, { retry: { shouldRetry: vendorRule(seen) } });
    const events = await collect(client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } }));
    const text = events.flatMap((e) => (e.kind === 'artifact-update' ? e.artifact.parts : [])).map((p) => (p.kind === 'text' ? p.text : '')).join('');
    expect(text).toBe('one two');
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(1);
    expect(agent.callsOf('subscribeToTask')).toHaveLength(2);
    // Asked for the drop (resume or not) and for the refused resubscribe.
    expect(seen.map((c) => c.method)).toEqual(['subscribeToTask', 'subscribeToTask']);
    expect(seen[0]?.verdict).toMatchObject({ retry: true });
    expect(seen[1]).toMatchObject({ error: { code: OVERLOADED }, verdict: { retry: false } });
  });

  it('the rule can refuse to resume a dropped stream: the drop is the stream’s error', async () => {
    const agent = agentNamed('rule-no-resume').on('sendStreamingMessage', stream(steps, { dropAfter: 2 }));
    const client = await serve(agent, { retry: { shouldRetry: (ctx) => (ctx.method === 'subscribeToTask' ? false : undefined) } });
    const error = await failure(collect(client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'go' }] } })));
    expect(error.kind).toBe('connection');
    expect(agent.callsOf('subscribeToTask')).toHaveLength(0);
  });
});

describe('polls (an agent that does not stream)', () => {
  it('resume: a poll answered with a vendor code ends the stream without the rule, goes on with it', async () => {
    const make = (prefix: string): MockAgent =>
      agentNamed(prefix, false).on('getTask', failFirst(1, overloaded, completedTask));
    const plain = make('rule-poll-plain');
    const without = await serve(plain, { retry: { maxAttempts: 1 } });
    const last = (await collectEvents(without.resume('task-p'))).at(-1);
    expect(last?.error).toMatchObject({ code: String(OVERLOADED) });

    const agent = make('rule-poll');
    const seen: RetryContext[] = [];
    const client = await serve(agent, { retry: { maxAttempts: 2, shouldRetry: vendorRule(seen) } });
    const events = await collectEvents(client.resume('task-p'));
    expect(events.at(-1)).toMatchObject({ done: true, state: 'completed' });
    expect(agent.callsOf('getTask')).toHaveLength(2);
    expect(seen[0]).toMatchObject({ method: 'getTask', verdict: { retry: false } });
  });

  it('waitForTask: a poll failure the SDK would end on is polled again when the rule says so', async () => {
    const plain = agentNamed('rule-wait-plain', false).on('getTask', failFirst(1, overloaded, completedTask));
    const without = await serve(plain, { retry: { maxAttempts: 1 } });
    await expect(without.waitForTask('task-w')).rejects.toMatchObject({ kind: 'json-rpc', code: OVERLOADED });

    const agent = agentNamed('rule-wait', false).on('getTask', failFirst(1, overloaded, completedTask));
    const seen: RetryContext[] = [];
    const client = await serve(agent, { retry: { maxAttempts: 1, shouldRetry: vendorRule(seen) } });
    await expect(client.waitForTask('task-w')).resolves.toMatchObject({ status: { state: 'completed' } });
    expect(agent.callsOf('getTask')).toHaveLength(2);
    // Asked by the read's own loop (one attempt allowed: maxAttempts bounds it), then by the wait's.
    expect(seen.map((c) => c.method)).toEqual(['getTask', 'getTask']);
  });

  it('waitForTask: the rule can end a wait the SDK would go on with', async () => {
    const agent = agentNamed('rule-wait-stop', false).on('getTask', failFirst(1, httpError(503), completedTask));
    const client = await serve(agent, { retry: { maxAttempts: 1, shouldRetry: (ctx) => (ctx.method === 'getTask' ? false : undefined) } });
    await expect(client.waitForTask('task-w')).rejects.toMatchObject({ kind: 'http', status: 503 });
    expect(agent.callsOf('getTask')).toHaveLength(1);
  });
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function collectEvents<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  return collect(iterable);
}
