import { describe, expect, it } from 'vitest';
import { A2AClientError, isA2AClientError } from '../../src/errors/a2a-client-error.js';
import type { Part, StreamEvent, Task, TaskState } from '../../src/protocol/model.js';
import type { ResilienceEvent } from '../../src/resilience/event-types.js';
import { createResilience } from '../../src/resilience/pipeline.js';
import type { CallRequests } from '../../src/protocol/agent-requests.js';
import type { CallScope } from '../../src/transport/call-scope.js';
import { resumableStream, type ResumableStreamOptions } from '../../src/resilience/stream-resume.js';
import { agentKey, errors } from './fixtures.js';

const text = (t: string): Part => ({ kind: 'text', text: t });
const base = { taskId: 't1', contextId: 'c1' };
const status = (state: TaskState, n: number): StreamEvent => ({
  kind: 'status-update',
  ...base,
  status: { state, timestamp: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z` },
  final: state === 'completed',
});
const chunk = (i: number): StreamEvent => ({
  kind: 'artifact-update',
  ...base,
  artifact: { artifactId: 'a1', parts: [text(`chunk-${i}`)] },
  append: i > 0,
  lastChunk: i === 9,
});

/** The whole script: a task, working, ten artifact chunks with a status in between, completed. */
function script(): StreamEvent[] {
  const events: StreamEvent[] = [{ kind: 'task', id: 't1', contextId: 'c1', status: { state: 'submitted', timestamp: '2026-01-01T00:00:00Z' } }];
  events.push(status('working', 1));
  for (let i = 0; i < 10; i++) {
    events.push(chunk(i));
    if (i === 4) events.push({ kind: 'status-update', ...base, status: { state: 'working', timestamp: '2026-01-01T00:00:05Z', message: { kind: 'message', messageId: 'm-half', role: 'agent', parts: [text('half way')] } } });
  }
  events.push(status('completed', 20));
  return events;
}

/** The task as the server holds it after the first `n` events. */
function fold(events: readonly StreamEvent[], n: number): Task {
  const task: Task = { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'submitted' }, artifacts: [] };
  for (const e of events.slice(0, n)) {
    if (e.kind === 'task') task.status = e.status;
    if (e.kind === 'status-update') task.status = e.status;
    if (e.kind === 'artifact-update') {
      const found = task.artifacts?.find((a) => a.artifactId === e.artifact.artifactId);
      if (found && e.append) found.parts = [...found.parts, ...e.artifact.parts];
      else task.artifacts = [...(task.artifacts ?? []).filter((a) => a.artifactId !== e.artifact.artifactId), { ...e.artifact, parts: [...e.artifact.parts] }];
    }
  }
  return structuredClone(task);
}

/**
 * A scripted agent whose connections drop after `perConnection` events; the server keeps going for
 * `lostInFlight` events the client never sees before it resubscribes.
 */
function flakyAgent(perConnection: number, lostInFlight: number, dropError: () => A2AClientError = errors.reset) {
  const all = script();
  let produced = 0;
  let opens = 0;
  let resubscribes = 0;
  async function* connection(from: number, snapshot: boolean): AsyncGenerator<StreamEvent> {
    if (snapshot) yield fold(all, from);
    let sent = 0;
    for (let i = from; i < all.length; i++) {
      if (sent === perConnection) {
        produced = Math.min(all.length, i + lostInFlight);
        throw dropError();
      }
      produced = i + 1;
      sent++;
      const event = all[i];
      if (event) yield event;
    }
  }
  return {
    all,
    opens: () => opens,
    resubscribes: () => resubscribes,
    open: () => {
      opens++;
      return connection(0, false);
    },
    resubscribe: (taskId: string) => {
      expect(taskId).toBe('t1');
      resubscribes++;
      return connection(produced, true);
    },
  };
}

/** What the caller ends up knowing, rebuilt from the delivered events. */
function replay(events: readonly StreamEvent[]): { parts: string[]; statuses: string[] } {
  const parts: string[] = [];
  const statuses: string[] = [];
  for (const e of events) {
    if (e.kind === 'task') {
      statuses.push(`${e.status.state}@${e.status.timestamp ?? ''}`);
      for (const a of e.artifacts ?? []) for (const p of a.parts) if (p.kind === 'text') parts.push(p.text);
    }
    if (e.kind === 'status-update') statuses.push(`${e.status.state}@${e.status.timestamp ?? ''}`);
    if (e.kind === 'artifact-update') {
      if (!e.append) parts.length = 0;
      for (const p of e.artifact.parts) if (p.kind === 'text') parts.push(p.text);
    }
  }
  return { parts, statuses };
}

/** Single events as the batches resumableStream reads (one event per network read). */
async function* batched(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent[]> {
  for await (const e of events) yield [e];
}

/** Events grouped into batches of `size`, as one network read may complete several frames. */
async function* grouped(events: AsyncIterable<StreamEvent>, size: number): AsyncGenerator<StreamEvent[]> {
  let batch: StreamEvent[] = [];
  try {
    for await (const e of events) {
      batch.push(e);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  } finally {
    // Events read before a drop still reach the client, as with a real network read.
    if (batch.length > 0) yield batch;
  }
}

async function collect(stream: AsyncIterable<StreamEvent[]>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const batch of stream) out.push(...batch);
  return out;
}

/** A scripted agent's three requests, as the resumed stream makes them. */
interface Sources {
  /** The send's stream. */
  open: (scope: CallScope, attempt: number) => AsyncIterable<StreamEvent[]>;
  /** A resubscribe's stream; `undefined`: the agent answers that it cannot (kind `unsupported`). */
  resubscribe: (taskId: string, scope: CallScope, attempt: number) => AsyncIterable<StreamEvent[]> | undefined;
  getTask: (taskId: string, scope: CallScope, attempt: number) => Promise<Task>;
}

type TestOptions = Omit<ResumableStreamOptions, 'open' | 'requests'> & Sources;

/** The sources as the call's requests, handed to the stream as the client hands its own. */
function requestsOf(s: Sources): CallRequests {
  const unsupported = (): AsyncIterable<StreamEvent[]> => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new A2AClientError({ kind: 'unsupported', message: 'subscribeToTask is not available' })) }),
  });
  return {
    stream: (method, params, scope, attempt) => (method === 'subscribeToTask' ? (s.resubscribe((params as { id: string }).id, scope, attempt) ?? unsupported()) : s.open(scope, attempt)),
    unary: ((method: string, params: { id: string }, scope: CallScope, attempt: number) => {
      if (method !== 'getTask') throw new Error(`not scripted: ${method}`);
      return s.getTask(params.id, scope, attempt);
    }) as CallRequests['unary'],
  };
}

/** `resumableStream` over scripted sources. */
function resumable(o: TestOptions): AsyncIterableIterator<StreamEvent[]> {
  const { open, resubscribe, getTask, ...rest } = o;
  return resumableStream({ ...rest, open: { method: 'sendStreamingMessage', params: { message: { kind: 'message', role: 'user', parts: [], messageId: 'm-1' } } }, requests: requestsOf({ open, resubscribe, getTask }) });
}

const options = (agent: ReturnType<typeof flakyAgent>, over: Partial<TestOptions> = {}): TestOptions => ({
  agent: 'agent-s',
  method: 'sendStreamingMessage',
  idempotent: false,
  deadline: performance.now() + 5000,
  open: () => batched(agent.open()),
  resubscribe: (taskId) => batched(agent.resubscribe(taskId)),
  getTask: async () => {
    throw new Error('not used');
  },
  retry: { baseDelayMs: 2, maxDelayMs: 10 },
  ...over,
});

const ALL_PARTS = Array.from({ length: 10 }, (_, i) => `chunk-${i}`);

describe('resumableStream', () => {
  it.each([
    ['drops every 3 events, 2 lost in flight each time', 3, 2],
    ['drops every 2 events, nothing lost in flight', 2, 0],
    ['drops after every single event, 1 lost', 1, 1],
    ['drops every 4 events, 5 lost', 4, 5],
  ])('%s: no loss, no duplicate, the send is never repeated', async (_name, per, lost) => {
    const agent = flakyAgent(per, lost);
    const events: ResilienceEvent[] = [];
    const delivered = await collect(resumable(options(agent, { onEvent: (e) => events.push(e) })));
    const { parts, statuses } = replay(delivered);
    expect(parts).toEqual(ALL_PARTS);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.at(-1)).toBe('completed@2026-01-01T00:00:20Z');
    expect(agent.opens()).toBe(1);
    expect(agent.resubscribes()).toBeGreaterThanOrEqual(2);
    expect(events.filter((e) => e.type === 'resubscribe')).toHaveLength(agent.resubscribes());
    expect(events[0]).toMatchObject({ type: 'resubscribe', taskId: 't1', agent: 'agent-s', reason: 'connection' });
  });

  it('without drops delivers the stream unchanged', async () => {
    const agent = flakyAgent(1000, 0);
    const delivered = await collect(resumable(options(agent)));
    expect(delivered).toEqual(agent.all);
    expect(agent.resubscribes()).toBe(0);
  });

  it('serves next() calls made before earlier ones settled in order, across drops and resumes', async () => {
    const agent = flakyAgent(3, 1);
    const stream = resumable(options(agent));
    const reads = Array.from({ length: 40 }, () => stream.next());
    const steps = await Promise.all(reads);
    const delivered = steps.flatMap((s) => (s.done === true ? [] : s.value));
    expect(replay(delivered).parts).toEqual(ALL_PARTS);
    expect(steps.at(-1)).toEqual({ value: undefined, done: true });
  });

  it('return() while a read waits closes the source at once; that read and later ones end as done', async () => {
    let closed = 0;
    let release: () => void = () => undefined;
    const source: AsyncIterable<StreamEvent[]> = {
      [Symbol.asyncIterator]: () => {
        let n = 0;
        return {
          next: () => {
            n++;
            if (n === 1) return Promise.resolve({ value: [status('working', 0)], done: false });
            return new Promise((resolve) => {
              release = () => resolve({ value: undefined, done: true });
            });
          },
          return: () => {
            closed++;
            release();
            return Promise.resolve({ value: undefined, done: true });
          },
        };
      },
    };
    const stream = resumable({ ...options(flakyAgent(10, 0)), open: () => source });
    expect((await stream.next()).done).toBe(false);
    const waiting = stream.next();
    expect(await stream.return?.()).toEqual({ value: undefined, done: true });
    expect(closed).toBe(1);
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('resumes after an idle-timeout too', async () => {
    const agent = flakyAgent(5, 1, () => errors.of('idle-timeout'));
    const delivered = await collect(resumable(options(agent)));
    expect(replay(delivered).parts).toEqual(ALL_PARTS);
  });

  it('reads batches of several events: a snapshot and the duplicates after it in one batch yield each update once', async () => {
    const agent = flakyAgent(5, 2);
    const delivered = await collect(
      resumable({ ...options(agent), open: () => grouped(agent.open(), 3), resubscribe: (taskId) => grouped(agent.resubscribe(taskId), 4) }),
    );
    const { parts, statuses } = replay(delivered);
    expect(parts).toEqual(ALL_PARTS);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.at(-1)).toMatch(/^completed/);
    expect(agent.resubscribes()).toBeGreaterThan(0);
  });

  it('falls back to polling getTask when resubscribe is unsupported, emitting only the difference', async () => {
    const all = script();
    let polls = 0;
    const delivered = await collect(
      resumable({
        ...options(flakyAgent(4, 0)),
        resubscribe: () => {
          throw errors.rpc(-32004, undefined, 'UnsupportedOperation');
        },
        getTask: async () => {
          polls++;
          return fold(all, Math.min(all.length, 4 + polls * 3));
        },
      }),
    );
    const { parts, statuses } = replay(delivered);
    expect(parts).toEqual(ALL_PARTS);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.at(-1)).toMatch(/^completed/);
    expect(polls).toBeGreaterThanOrEqual(3);
  });

  it('falls back to polling when the resubscribe stream answers HTTP 405', async () => {
    const all = script();
    const delivered = await collect(
      resumable({
        ...options(flakyAgent(6, 0)),
        resubscribe: () => (async function* (): AsyncGenerator<StreamEvent[]> {
          throw errors.http(405);
        })(),
        getTask: async () => fold(all, all.length),
      }),
    );
    expect(replay(delivered).parts).toEqual(ALL_PARTS);
  });

  it('retries a failing resubscribe through the pipeline (503 with a delay hint, 502, refused), then resumes exactly', async () => {
    const agent = flakyAgent(4, 2);
    const failures = [errors.http(503, { 'retry-after': '0' }), errors.http(502), errors.refused()];
    let calls = 0;
    const events: ResilienceEvent[] = [];
    const delivered = await collect(
      resumable({
        ...options(agent),
        resilience: createResilience(agentKey(), 'agent-s', { retry: { baseDelayMs: 2, maxAttempts: 5, budget: false }, onEvent: (e) => events.push(e) }),
        resubscribe: (taskId) => {
          const failure = failures[calls++];
          if (failure) {
            return (async function* (): AsyncGenerator<StreamEvent[]> {
              throw failure;
            })();
          }
          return batched(agent.resubscribe(taskId));
        },
      }),
    );
    expect(replay(delivered).parts).toEqual(ALL_PARTS);
    expect(calls).toBeGreaterThanOrEqual(4);
    const retried = events.flatMap((e) => (e.type === 'retry' && e.method === 'subscribeToTask' && isA2AClientError(e.error) ? [e.error.status ?? e.error.reason] : []));
    expect(retried).toEqual([503, 502, 'refused']);
  });

  it('polling backs off while nothing changes and gives up with idle-timeout after maxIdleMs without news', async () => {
    const all = script();
    const polledAt: number[] = [];
    const started = performance.now();
    let thrown: unknown;
    try {
      await collect(
        resumable({
          ...options(flakyAgent(4, 0)),
          resubscribe: () => undefined,
          getTask: async () => {
            polledAt.push(performance.now());
            return fold(all, 4);
          },
          retry: { baseDelayMs: 10, maxDelayMs: 40 },
          maxIdleMs: 250,
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect(isA2AClientError(thrown) && thrown).toMatchObject({ kind: 'idle-timeout', agent: 'agent-s' });
    expect(isA2AClientError(thrown) && isA2AClientError(thrown.cause) && thrown.cause.kind).toBe('connection');
    expect(performance.now() - started).toBeLessThan(250 + 800);
    const gaps = polledAt.slice(1).map((t, i) => t - (polledAt[i] ?? t));
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    // Growing while nothing changes, up to maxDelayMs (timers never fire early, so the 40 ms wait shows
    // however loaded the machine is; the last wait is cut to the idle time left), never below the floor.
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(38);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(20);
  });

  it('polls no faster than the floor even with a zero backoff, and stops at maxIdleMs', async () => {
    const all = script();
    let polls = 0;
    const started = performance.now();
    let thrown: unknown;
    try {
      await collect(
        resumable({
          ...options(flakyAgent(4, 0)),
          resubscribe: () => undefined,
          getTask: async () => {
            polls++;
            return fold(all, 4);
          },
          retry: { baseDelayMs: 0, maxDelayMs: 0 },
          maxIdleMs: 300,
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect(isA2AClientError(thrown) && thrown.kind).toBe('idle-timeout');
    expect(polls).toBeLessThanOrEqual(300 / 25 + 2);
    expect(performance.now() - started).toBeLessThan(300 + 800);
  });

  it('retries the send before the first event (commit point) under the pipeline', async () => {
    const agent = flakyAgent(1000, 0);
    let opens = 0;
    const delivered = await collect(
      resumable({
        ...options(agent),
        resilience: createResilience(agentKey(), 'agent-s', { retry: { baseDelayMs: 2, budget: false } }),
        open: () => {
          opens++;
          if (opens <= 2) {
            return (async function* (): AsyncGenerator<StreamEvent[]> {
              throw errors.refused();
            })();
          }
          return batched(agent.open());
        },
      }),
    );
    expect(opens).toBe(3);
    expect(delivered).toEqual(agent.all);
  });

  it('does not resume a non-drop error (a JSON-RPC error frame)', async () => {
    const all = script();
    async function* source(): AsyncGenerator<StreamEvent> {
      yield all[0] as StreamEvent;
      throw errors.rpc(-32602);
    }
    const seen: StreamEvent[] = [];
    let thrown: unknown;
    try {
      for await (const batch of resumable({ ...options(flakyAgent(1, 0)), open: () => batched(source()) })) seen.push(...batch);
    } catch (error) {
      thrown = error;
    }
    expect(seen).toHaveLength(1);
    expect(isA2AClientError(thrown) && thrown).toMatchObject({ kind: 'json-rpc', code: -32602, agent: 'agent-s', method: 'sendStreamingMessage' });
  });

  it('ends with deadline-exceeded (cause: the last drop) when the agent keeps dropping and attempts are left', async () => {
    const agent = flakyAgent(0, 0);
    const started = performance.now();
    let thrown: unknown;
    try {
      await collect(
        resumable({
          ...options(agent),
          open: () => batched(flakyAgent(1, 0).open()),
          resubscribe: () => (async function* (): AsyncGenerator<StreamEvent[]> {
            await new Promise((resolve) => setTimeout(resolve, 5));
            throw errors.reset();
          })(),
          deadline: performance.now() + 200,
          // Attempts enough to outlast the deadline: the deadline, not the count, ends this stream.
          retry: { baseDelayMs: 20, maxDelayMs: 20, maxAttempts: 1000 },
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect(isA2AClientError(thrown) && thrown.kind).toBe('deadline-exceeded');
    expect(isA2AClientError(thrown) && isA2AClientError(thrown.cause) && thrown.cause.kind).toBe('connection');
    expect(performance.now() - started).toBeLessThan(200 + 800);
  });

  it('stops at once when the caller aborts, and the source sees the abort on its signal', async () => {
    const controller = new AbortController();
    let sourceSignal: AbortSignal | undefined;
    async function* hanging(signal: AbortSignal): AsyncGenerator<StreamEvent> {
      sourceSignal = signal;
      yield script()[0] as StreamEvent;
      await new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(errors.of('aborted')), { once: true }));
    }
    const stream = resumable({ ...options(flakyAgent(1, 0)), open: (scope) => batched(hanging(scope.signal)), signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    setTimeout(() => controller.abort(new Error('bye')), 10);
    const started = performance.now();
    await expect(iterator.next()).rejects.toMatchObject({ kind: 'aborted', agent: 'agent-s' });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(sourceSignal?.aborted).toBe(true);
  });
});
