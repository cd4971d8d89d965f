/**
 * Stream resumption against real loopback agents (undici engine): a stream that drops in the middle
 * of an artifact made of repeated identical tokens resumes with exactly the server's final text, by
 * both the protocol API and the event API; the resubscribe is a call like any other — a 503 with
 * Retry-After, a gateway's 502 HTML page and a refused connection (the server gone for a moment) are
 * retried, a fatal error ends the stream with that error, and the deadline ends it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type AgentEvent, type ClientOptions, type ResilienceEvent, type StreamEvent } from '../../src/index.js';
import { httpError, mockAgent, stream, type MockAgent, type Scenario } from '../../mocks/index.js';
import { isA2AClientError } from '../../src/errors/a2a-client-error.js';
import { artifactsText } from '../../src/convert/event-parts.js';
import type { Artifact, Part, ProtocolBinding, ProtocolVersion, Task } from '../../src/protocol/model.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { LOOPBACK_COMBOS, collect, iterationError, uniqueName } from '../client/harness.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const text = (t: string): Part => ({ kind: 'text', text: t });
const answer = (t: string, append = true) => ({ artifact: { artifactId: 'answer', parts: [text(t)] }, append });
const draft = (t: string) => ({ artifact: { artifactId: 'draft', parts: [text(t)] } });

/**
 * The agent's stream: repeated identical tokens in `answer`, a `draft` replaced by a shorter one.
 * Served with `dropAfter: 7` (the submitted Task counts): the client sees up to answer's fifth token.
 */
const STEPS = [
  { status: 'working' as const },
  answer('la', false),
  answer('la'),
  answer('la'),
  draft('a long first draft'),
  answer('la'),
  // ── dropped here; the next three happen while the client is away (in the snapshot) ──
  answer(' '),
  draft('short'),
  answer('la'),
  // ── then live after the snapshot ──
  answer('la'),
  answer('la'),
  { status: 'completed' as const },
];
const FINAL_ANSWER = 'lalalala lalala';

/** subscribeToTask: the first `lost` undelivered events happened meanwhile (in the snapshot); the rest follow live. */
function resumeAfter(lost: number): Scenario {
  return (ctx) => {
    const id = ctx.taskId ?? '';
    const pending = ctx.store.takePending(id);
    for (const e of pending.slice(0, lost)) ctx.store.apply(e);
    const snapshot = ctx.store.get(id);
    if (!snapshot) return { type: 'rpc-error', code: -32001, message: `Task not found: ${id}` };
    return { type: 'stream', events: [snapshot, ...pending.slice(lost)] };
  };
}

function render(parts: readonly Part[]): string {
  return parts.map((p) => (p.kind === 'text' ? p.text : JSON.stringify(p))).join('');
}

/** What a protocol-level caller rebuilds: artifact updates applied with the append rule. */
function rebuild(events: readonly StreamEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events) {
    if (e.kind === 'task') for (const a of e.artifacts ?? []) out.set(a.artifactId, render(a.parts));
    if (e.kind === 'artifact-update') out.set(e.artifact.artifactId, (e.append === true ? (out.get(e.artifact.artifactId) ?? '') : '') + render(e.artifact.parts));
  }
  return out;
}

function finalArtifacts(agent: MockAgent, taskId: string | undefined): Artifact[] {
  const task: Task | undefined = agent.store.get(taskId ?? '');
  expect(task?.status.state).toBe('completed');
  return task?.artifacts ?? [];
}

async function serve(version: ProtocolVersion, binding: ProtocolBinding): Promise<MockAgent> {
  const agent = mockAgent({ name: uniqueName('resume'), version, binding });
  agent.on('sendStreamingMessage', stream(STEPS, { dropAfter: 7 }));
  agent.on('subscribeToTask', resumeAfter(3));
  return agent;
}

const go = { message: { role: 'user' as const, parts: [text('go')] } };

describe.each(LOOPBACK_COMBOS)('exact resume, loopback (v%s %s)', (version, binding) => {
  it('sendStreamingMessage and stream() both end with exactly the server final artifacts; the send is not repeated', async () => {
    const agent = await serve(version, binding);
    const server = await agent.listen();
    cleanups.push(server.close);
    const events: ResilienceEvent[] = [];
    const client = await A2AClient.connect(server.url, { retry: { baseDelayMs: 5 }, onEvent: (e) => events.push(e) });
    cleanups.unshift(() => client.close());

    const got = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
    const taskId = got[0]?.kind === 'task' ? got[0].id : undefined;
    const expected = finalArtifacts(agent, taskId);
    expect(expected.map((a) => [a.artifactId, render(a.parts)])).toEqual([
      ['answer', FINAL_ANSWER],
      ['draft', 'short'],
    ]);
    expect(Object.fromEntries(rebuild(got))).toEqual({ answer: FINAL_ANSWER, draft: 'short' });
    // Each character of the only-appended artifact arrived once, in order.
    const answerChunks = got.flatMap((e) => (e.kind === 'artifact-update' && e.artifact.artifactId === 'answer' ? [render(e.artifact.parts)] : []));
    expect(answerChunks.join('')).toBe(FINAL_ANSWER);
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'resubscribe')).toHaveLength(1);

    const converted: AgentEvent[] = await collect(client.stream('go', { timeouts: { totalMs: 5_000 } }));
    const last = converted.at(-1);
    expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed' });
    expect(last?.text).toBe(artifactsText(finalArtifacts(agent, last?.taskId)));
    expect(last?.text).toBe(`${FINAL_ANSWER}\nshort`);
    const answerText = converted.filter((e) => e.object === 'chat.completion.chunk' && e.id === 'answer').map((e) => e.text).join('');
    expect(answerText).toBe(FINAL_ANSWER);
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(2);
  });
});

/** An agent behind a relay that can refuse connections for a while, and a client built from its card. */
async function behindProxy(version: ProtocolVersion, options: ClientOptions): Promise<{ agent: MockAgent; proxy: TcpProxy; client: A2AClient }> {
  const agent = mockAgent({ name: uniqueName('resume-faults'), version, binding: 'JSONRPC' });
  agent.on('sendStreamingMessage', stream(STEPS, { dropAfter: 7 }));
  const server = await agent.listen();
  cleanups.push(server.close);
  const proxy = await startTcpProxy(Number(new URL(server.url).port));
  cleanups.push(proxy.close);
  const card: unknown = JSON.parse(JSON.stringify(agent.card).replaceAll(server.url, proxy.url));
  const client = new A2AClient(card, options);
  cleanups.unshift(() => client.close());
  return { agent, proxy, client };
}

const refused = (e: ResilienceEvent): boolean =>
  (e.type === 'retry' || e.type === 'give-up') && isA2AClientError(e.error) && e.error.kind === 'connection' && e.error.reason === 'refused';

describe.each<ProtocolVersion>(['1.0', '0.3'])('the resubscribe is a call like any other (v%s JSON-RPC, loopback)', (version) => {
  it('503 + Retry-After, then a 502 HTML page, then refused (server gone), then OK: the stream completes exactly', async () => {
    const events: ResilienceEvent[] = [];
    let setup: { agent: MockAgent; proxy: TcpProxy } | undefined;
    const { agent, proxy, client } = await behindProxy(version, {
      retry: { baseDelayMs: 10, maxAttempts: 5 },
      onEvent: (e) => {
        events.push(e);
        // The gateway's 502 is followed by the server going away; the refusal brings it back.
        if (e.type === 'retry' && isA2AClientError(e.error) && e.error.status === 502) void setup?.proxy.goDark();
        if (refused(e)) void setup?.proxy.comeBack();
      },
    });
    setup = { agent, proxy };
    agent.once('subscribeToTask', httpError(503, { retryAfter: 1 }));
    agent.once('subscribeToTask', httpError(502, { body: '<html><body><h1>502 Bad Gateway</h1>nginx</body></html>', headers: { connection: 'close' } }));
    agent.on('subscribeToTask', resumeAfter(3));

    const got = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 10_000 } }));
    expect(Object.fromEntries(rebuild(got))).toEqual({ answer: FINAL_ANSWER, draft: 'short' });
    const subscribes = agent.callsOf('subscribeToTask');
    expect(subscribes).toHaveLength(3);
    // Retry-After: 1 was honoured before the second resubscribe.
    expect((subscribes[1]?.at ?? 0) - (subscribes[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    const retries = events.filter((e) => e.type === 'retry' && e.method === 'subscribeToTask');
    expect(retries.map((e) => (e.type === 'retry' && isA2AClientError(e.error) ? (e.error.status ?? e.error.reason) : undefined))).toEqual([503, 502, 'refused']);
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(1);
  });

  it('an agent restarting for a second opens its breaker; the stream waits for the half-open probe and completes exactly', async () => {
    const events: ResilienceEvent[] = [];
    let setup: { proxy: TcpProxy } | undefined;
    const { agent, proxy, client } = await behindProxy(version, {
      // Resume rounds are attempts: the drop, four refused resubscribes (the breaker opens at five
      // failures), the round the open breaker refuses and the probe fit in ten attempts without news.
      retry: { baseDelayMs: 10, maxDelayMs: 20, budget: false, maxAttempts: 10 },
      circuitBreaker: { consecutiveFailures: 5, halfOpenAfterMs: 800 },
      onEvent: (e) => {
        events.push(e);
        // The stream dropped: the server goes away, until the breaker has opened; it is back before the probe.
        if (e.type === 'resubscribe' && e.attempt === 1) void setup?.proxy.goDark();
        if (e.type === 'breaker-open') setTimeout(() => void setup?.proxy.comeBack(), 200);
      },
    });
    setup = { proxy };
    agent.on('subscribeToTask', resumeAfter(3));
    const got = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 10_000 } }));
    expect(Object.fromEntries(rebuild(got))).toEqual({ answer: FINAL_ANSWER, draft: 'short' });
    const transitions = events.filter((e) => e.type.startsWith('breaker')).map((e) => e.type);
    expect(transitions).toEqual(['breaker-open', 'breaker-half-open', 'breaker-close']);
    expect(agent.callsOf('sendStreamingMessage')).toHaveLength(1);
  });

  it('a fatal resubscribe error (after a retried 503) ends the stream with that error, as an error event in stream()', async () => {
    const { agent, client } = await behindProxy(version, { retry: { baseDelayMs: 10 } });
    agent.on('subscribeToTask', perTask(httpError(503), httpError(403, { body: 'forbidden' })));
    const error = await iterationError(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
    expect(isA2AClientError(error) && error).toMatchObject({ kind: 'http', status: 403, method: 'subscribeToTask', retryable: false });
    const converted = await collect(client.stream('go', { timeouts: { totalMs: 5_000 } }));
    expect(converted.at(-1)).toMatchObject({ object: 'error', done: true, error: { code: '403', retryable: false } });
    expect(converted.filter((e) => e.error !== undefined)).toHaveLength(1);
  });

  it('a resubscribe that keeps failing with 503 ends the stream with that 503 once maxAttempts attempts brought nothing', async () => {
    const { agent, client } = await behindProxy(version, { retry: { baseDelayMs: 10, maxDelayMs: 10, budget: false }, circuitBreaker: false });
    agent.on('subscribeToTask', httpError(503));
    const started = performance.now();
    const error = await iterationError(client.sendStreamingMessage(go, { timeouts: { totalMs: 10_000 } }));
    // maxAttempts 3: the drop, then one resume round whose two attempts get 503 — the agent's own error, fast.
    expect(isA2AClientError(error) && error).toMatchObject({ kind: 'http', status: 503, method: 'subscribeToTask', retryable: true, ambiguous: true });
    expect(isA2AClientError(error) && error.attempts.map((a) => a.status ?? a.kind)).toEqual(['connection', 503, 503]);
    expect(agent.callsOf('subscribeToTask')).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a resubscribe that keeps failing with 503 with attempts to spare is retried until the deadline, which ends the stream', async () => {
    const { agent, client } = await behindProxy(version, { retry: { baseDelayMs: 100, maxDelayMs: 100, budget: false, maxAttempts: 1000 }, circuitBreaker: false });
    agent.on('subscribeToTask', httpError(503));
    const started = performance.now();
    const error = await iterationError(client.sendStreamingMessage(go, { timeouts: { totalMs: 1_000 } }));
    const elapsed = performance.now() - started;
    expect(isA2AClientError(error) && error.kind).toBe('deadline-exceeded');
    // The deadline may cut a request in flight (then that request is the cause): the 503s are in attempts.
    expect(isA2AClientError(error) && error.attempts.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(2);
    expect(agent.callsOf('subscribeToTask').length).toBeGreaterThanOrEqual(3);
    expect(elapsed).toBeGreaterThan(850);
    expect(elapsed).toBeLessThan(3_000);
  });
});

/** The first resubscribe of each task gets `first`, every later one `then`. */
function perTask(first: Scenario, then: Scenario): Scenario {
  const seen = new Set<string>();
  return (ctx) => {
    const id = ctx.taskId ?? '';
    if (seen.has(id)) return then(ctx);
    seen.add(id);
    return first(ctx);
  };
}

describe.each(LOOPBACK_COMBOS)('a resubscribe that closes without its snapshot (v%s %s, loopback)', (version, binding) => {
  it('is not repeated: the task is read instead, and the stream ends with exactly the final text', async () => {
    const agent = mockAgent({ name: uniqueName('resume-empty'), version, binding });
    agent.on('sendStreamingMessage', stream(STEPS, { dropAfter: 7 }));
    // The task ends while the client is away; the resubscribe then closes at once, empty.
    agent.on('subscribeToTask', (ctx) => {
      const id = ctx.taskId ?? '';
      for (const e of ctx.store.takePending(id)) ctx.store.apply(e);
      return { type: 'stream', events: [] };
    });
    const server = await agent.listen();
    cleanups.push(server.close);
    const client = await A2AClient.connect(server.url, { retry: { baseDelayMs: 5 } });
    cleanups.unshift(() => client.close());

    const got = await collect(client.sendStreamingMessage(go, { timeouts: { totalMs: 5_000 } }));
    expect(Object.fromEntries(rebuild(got))).toEqual({ answer: FINAL_ANSWER, draft: 'short' });
    expect(got.at(-1)).toMatchObject({ kind: 'status-update', status: { state: 'completed' } });
    expect(agent.callsOf('subscribeToTask')).toHaveLength(1);
    expect(agent.callsOf('getTask')).toHaveLength(1);
  });
});
