/**
 * `accumulate` on `stream()` and `resume()`: the chunks are the same whatever it says; the final event
 * carries the whole answer up to the limit (1 MiB of text by default), and past it, or with `false`, no
 * gathered answer (`answerOmitted`), and the answer is not kept while the stream runs (heap measured on
 * a long stream from a real loopback server).
 */
import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, isTerminalError, type AgentEvent } from '../../src/index.js';
import { startOfficialServer, type OfficialServer } from '../helpers/official-server.js';
import { COMBOS } from './harness.js';

let server: OfficialServer;
beforeAll(async () => {
  server = await startOfficialServer({ chunkDelayMs: 5 });
});
afterAll(async () => {
  await server.close();
});

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const expected = (n: number): string => Array.from({ length: n }, (_, i) => `chunk ${i} `).join('');
const chunks = (events: readonly AgentEvent[]): string[] => events.filter((e) => e.object === 'chat.completion.chunk').map((e) => e.text ?? '');

describe.each(COMBOS)('accumulate: false on the official server (v%s %s)', (version, binding) => {
  it('stream(): the same chunks; the final event carries its status message, not the answer', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    try {
      const lean = await collect(client.stream('stream 12', { accumulate: false }));
      const whole = await collect(client.stream('stream 12'));
      expect(chunks(lean)).toEqual(chunks(whole));
      expect(chunks(lean).join('')).toBe(expected(12));
      expect(whole.at(-1)).toMatchObject({ object: 'chat.completion', state: 'completed', text: expected(12) });
      expect(lean.at(-1)).toMatchObject({ object: 'chat.completion', done: true, state: 'completed', text: 'streamed 12 chunks' });
    } finally {
      await client.close();
    }
  });

  it('a limit in characters: the whole answer while it fits, the status message past it', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    try {
      const length = expected(12).length;
      const fits = await collect(client.stream('stream 12', { accumulate: length }));
      expect(fits.at(-1)).toMatchObject({ object: 'chat.completion', state: 'completed', text: expected(12) });
      expect(fits.at(-1)?.answerOmitted).toBeUndefined();
      const over = await collect(client.stream('stream 12', { accumulate: length - 1 }));
      expect(chunks(over)).toEqual(chunks(fits));
      expect(over.at(-1)).toMatchObject({ object: 'chat.completion', done: true, text: 'streamed 12 chunks', answerOmitted: true });
    } finally {
      await client.close();
    }
  });

  it('resume(): a completed task’s answer arrives as a chunk, the final event without it', async () => {
    const client = await A2AClient.connect(server.baseUrl, { protocol: { version, binding } });
    try {
      const sent = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream 4' }] } });
      const events = await collect(client.resume(sent.kind === 'task' ? sent.id : '', { accumulate: false }));
      expect(chunks(events).join('')).toBe(expected(4));
      const last = events.at(-1);
      expect(last).toMatchObject({ object: 'chat.completion', done: true, state: 'completed' });
      expect(last?.text).toBe('streamed 4 chunks');
      expect(last?.parts?.some((p) => p.kind === 'text' && p.text.includes('chunk 0'))).not.toBe(true);
    } finally {
      await client.close();
    }
  });
});

/** A v1.0 JSON-RPC agent on loopback whose one stream is `chunks` appended 4 KB chunks, written as the socket drains. */
async function longAnswerAgent(chunks: number): Promise<{ url: string; close: () => Promise<void> }> {
  const piece = 'x'.repeat(4096);
  const srv: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const id = (JSON.parse(body) as { id: number | string }).id;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = (result: unknown): string => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
      const ids = { taskId: 't-long', contextId: 'c-long' };
      res.write(frame({ task: { id: ids.taskId, contextId: ids.contextId, status: { state: 'TASK_STATE_WORKING' } } }));
      let i = 0;
      const pump = (): void => {
        while (i < chunks) {
          const update = { artifactUpdate: { ...ids, artifact: { artifactId: 'answer', parts: [{ text: piece }] }, ...(i > 0 ? { append: true } : {}) } };
          i++;
          if (!res.write(frame(update))) {
            res.once('drain', pump);
            return;
          }
        }
        res.end(frame({ statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED' } } }));
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    close: () => new Promise<void>((resolve) => {
      srv.closeAllConnections();
      srv.close(() => resolve());
    }),
  };
}

describe('a long answer is not kept by default, nor with accumulate: false', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;

  /** Heap growth (bytes) between chunk 200 and chunk `n - 50` of a stream of `n` 4 KB chunks, and the final event. */
  async function measure(n: number, accumulate: boolean | undefined): Promise<{ growth: number; last: AgentEvent | undefined; chunks: number }> {
    const agent = await longAnswerAgent(n);
    const card = {
      name: 'long-answer', description: 'long answers', version: '1.0.0',
      supportedInterfaces: [{ url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
    };
    const client = new A2AClient(card);
    let base = 0;
    let growth = 0;
    let count = 0;
    let last: AgentEvent | undefined;
    try {
      for await (const event of client.stream('write a long answer', accumulate === undefined ? {} : { accumulate })) {
        if (isTerminalError(event)) throw new Error(event.error?.message);
        if (event.object === 'chat.completion.chunk') count++;
        if (count === 200 && base === 0) {
          gc();
          base = process.memoryUsage().heapUsed;
        }
        if (count === n - 50 && growth === 0) {
          gc();
          growth = process.memoryUsage().heapUsed - base;
        }
        if (event.done) last = event;
      }
    } finally {
      await client.close();
      await agent.close();
    }
    return { growth, last, chunks: count };
  }

  it('5 000 chunks of 4 KB (20 MB): the heap grows by under 4 MB by default and with accumulate: false, by the answer with accumulate: true', async () => {
    const n = 5_000;
    for (const accumulate of [false, undefined]) {
      const lean = await measure(n, accumulate);
      expect(lean.chunks).toBe(n);
      expect(lean.last).toMatchObject({ object: 'chat.completion', state: 'completed', answerOmitted: true });
      expect(lean.last?.text ?? '').toBe('');
      expect(lean.growth).toBeLessThan(4 * 1024 * 1024);
    }
    // The measurement sees an accumulated answer when there is one.
    const whole = await measure(n, true);
    expect(whole.last?.text?.length).toBe(n * 4096);
    expect(whole.last?.answerOmitted).toBeUndefined();
    expect(whole.growth).toBeGreaterThan(12 * 1024 * 1024);
  }, 60_000);

  it('refuses a limit that is not a whole number of characters ≥ 0, when stream() is called', async () => {
    const agent = await longAnswerAgent(1);
    const client = new A2AClient({
      name: 'long-answer', description: 'long answers', version: '1.0.0',
      supportedInterfaces: [{ url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
    });
    try {
      for (const bad of [-1, 1.5, Number.NaN]) expect(() => client.stream('x', { accumulate: bad })).toThrow(RangeError);
      const events = await collect(client.stream('x', { accumulate: 0 }));
      expect(events.at(-1)).toMatchObject({ object: 'chat.completion', answerOmitted: true, text: '' });
    } finally {
      await client.close();
      await agent.close();
    }
  });
});
