/**
 * The event API (`invoke` / `stream` → `AgentEvent`) end to end through the official `@a2a-js/sdk`
 * 1.3 server, for every protocol version × binding × HTTP engine: structured task failures become
 * exactly one terminal error event with the seeds/000 fields, streams end with one final event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isTerminalError } from '../../src/index.js';
import type { AgentEvent } from '../../src/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';

const COMBOS = (['1.0', '0.3'] as const).flatMap((v) =>
  (['JSONRPC', 'HTTP+JSON'] as const).flatMap((b) => (['undici', 'fetch'] as const).map((e) => [v, b, e] as const)),
);
const AGENT = 'official-interop-agent';

async function collect(items: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The one terminal error event, asserted to be the last and only error of `events`. */
function onlyTerminalError(events: readonly AgentEvent[]): AgentEvent & { error: NonNullable<AgentEvent['error']> } {
  expect(events.filter(isTerminalError)).toHaveLength(1);
  expect(events.filter((e) => e.error !== undefined)).toHaveLength(1);
  const last = events.at(-1);
  if (last === undefined || !isTerminalError(last)) throw new Error(`last event is not a terminal error: ${JSON.stringify(last?.object)}`);
  expect(last).toMatchObject({ object: 'error', done: true, state: 'failed', agent: AGENT });
  return last;
}

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer();
});
afterAll(async () => {
  await server.close();
});

describe.each(COMBOS)('events v%s %s (%s engine) ↔ official server', (version, binding, engine) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding }, ...(engine === 'fetch' ? { fetch: 'global' as const } : {}) });
    expect(client.protocol).toMatchObject({ version, binding });
  });
  afterAll(async () => {
    await client.close();
  });

  it.each([
    ['fail E42', 'outer metadata and its status-message mirror'],
    ['fail-mirror E42', 'status-message metadata only'],
  ])('invoke("%s") → one terminal flow_error E42 (%s), id = llm_response_id, no artifacts', async (input) => {
    const events = await client.invoke(input);
    expect(events).toHaveLength(1);
    const failure = onlyTerminalError(events);
    expect(failure.error).toMatchObject({ type: 'flow_error', code: 'E42', message: 'scripted failure E42' });
    expect(failure.taskId).toEqual(expect.any(String));
    expect(failure.id).toBe(`resp-${failure.taskId ?? ''}`);
    expect(events.some((e) => e.object === 'chat.completion' || e.object === 'chat.completion.chunk')).toBe(false);
    expect(JSON.parse(JSON.stringify(failure.error))).toMatchObject({ type: 'flow_error', code: 'E42' });
  });

  it('invoke("fail-text") → flow_error, no code, the status text as message', async () => {
    const events = await client.invoke('fail-text');
    expect(events).toHaveLength(1);
    const failure = onlyTerminalError(events);
    expect(failure.error.type).toBe('flow_error');
    expect(failure.error.code).toBeUndefined();
    expect(failure.error.message).toBe('scripted failure without metadata');
  });

  it('stream("stream-fail 3") → three chunks, then exactly one terminal error and nothing after', async () => {
    const events = await collect(client.stream('stream-fail 3'));
    expect(events.map((e) => e.object)).toEqual(['chat.completion.chunk', 'chat.completion.chunk', 'chat.completion.chunk', 'error']);
    const chunks = events.slice(0, 3);
    expect(chunks.map((e) => [e.text, e.partial, e.done, e.error])).toEqual([
      ['chunk 0 ', true, false, undefined],
      ['chunk 1 ', true, false, undefined],
      ['chunk 2 ', true, false, undefined],
    ]);
    const failure = onlyTerminalError(events);
    expect(failure.error).toMatchObject({ type: 'flow_error', code: 'STREAM_BROKEN', message: 'scripted failure STREAM_BROKEN' });
    expect(failure.id).toBe(`resp-${failure.taskId ?? ''}`);
    for (const chunk of chunks) expect(chunk.taskId).toBe(failure.taskId);
  });

  it('stream("fail E42") → the same single terminal error as invoke', async () => {
    const events = await collect(client.stream('fail E42'));
    const failure = onlyTerminalError(events);
    expect(events).toHaveLength(1);
    expect(failure.error).toMatchObject({ type: 'flow_error', code: 'E42', message: 'scripted failure E42' });
    expect(failure.id).toBe(`resp-${failure.taskId ?? ''}`);
  });

  it('stream("stream 4") → four chunks, then one final chat.completion with the whole text', async () => {
    const events = await collect(client.stream('stream 4'));
    expect(events.map((e) => e.object)).toEqual([
      'chat.completion.chunk', 'chat.completion.chunk', 'chat.completion.chunk', 'chat.completion.chunk', 'chat.completion',
    ]);
    expect(events.map((e) => e.text)).toEqual(['chunk 0 ', 'chunk 1 ', 'chunk 2 ', 'chunk 3 ', 'chunk 0 chunk 1 chunk 2 chunk 3 ']);
    expect(events.filter((e) => e.done)).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ done: true, partial: false, state: 'completed', agent: AGENT });
    expect(events.some((e) => e.error !== undefined)).toBe(false);
    const taskIds = new Set(events.map((e) => e.taskId));
    expect(taskIds.size).toBe(1);
  });

  it('invoke("echo hi") → one chat.completion with text "hi"', async () => {
    const events = await client.invoke('echo hi');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'chat.completion', text: 'hi', done: true, partial: false, state: 'completed', agent: AGENT });
    expect(events[0]?.error).toBeUndefined();
  });

  it('invoke("message hello") → one chat.completion from a plain Message reply', async () => {
    const events = await client.invoke('message hello');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ object: 'chat.completion', text: 'hello', done: true, agent: AGENT });
    expect(events[0]?.error).toBeUndefined();
  });
});
