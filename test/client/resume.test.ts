/**
 * `client.resume(taskId)`: the event API for a task that already exists, against the official
 * `@a2a-js/sdk` server (v1.0 and v0.3, JSON-RPC and REST) and a mock agent that does not stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, type AgentEvent, type ClientOptions, type StreamEvent } from '../../src/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { COMBOS } from './harness.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer({ chunkDelayMs: 15 });
});
afterAll(async () => {
  await server.close();
});

const expected = (n: number): string => Array.from({ length: n }, (_, i) => `chunk ${i} `).join('');

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const chunkText = (events: readonly AgentEvent[]): string =>
  events.filter((e) => e.object === 'chat.completion.chunk' && e.state === undefined).map((e) => e.text ?? '').join('');

describe.each(COMBOS)('resume on the official server (v%s %s)', (version, binding) => {
  const options = (): ClientOptions => ({ protocol: { version, binding }, retry: { baseDelayMs: 10, budget: false } });

  it('a second client picks up a running task the first one left: the snapshot, then every chunk exactly once, in order', async () => {
    const first = await A2AClient.connect(server.baseUrl, options());
    let taskId: string | undefined;
    let seen = 0;
    // The first client reads a few updates, then goes away (its stream is closed).
    for await (const event of first.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream 40' }] } })) {
      taskId ??= taskIdOf(event);
      if (event.kind === 'artifact-update') seen++;
      if (seen === 5) break;
    }
    await first.close();
    expect(taskId).toBeDefined();

    const second = await A2AClient.connect(server.baseUrl, options());
    try {
      const events = await collect(second.resume(taskId as string));
      expect(chunkText(events)).toBe(expected(40));
      const last = events.at(-1);
      expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', taskId });
      expect(last?.text).toBe(expected(40).replace(/\n$/, ''));
      // The snapshot came first: it already held what the first client had seen.
      expect(events[0]?.text?.startsWith('chunk 0 chunk 1 chunk 2 chunk 3 chunk 4 ')).toBe(true);
      expect(events.filter((e) => e.done)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

function taskIdOf(event: StreamEvent): string | undefined {
  if (event.kind === 'task') return event.id;
  if (event.kind === 'message') return event.taskId;
  return event.taskId;
}
