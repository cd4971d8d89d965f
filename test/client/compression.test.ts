/**
 * Compressed answers end to end: an A2AClient against a loopback JSON-RPC agent (a gateway, say) that
 * gzips its card, its unary answers and its SSE streams (flushing after each event), whether or not
 * the client asked. With `compression: true` the undici engine sends `Accept-Encoding`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { A2AClient, type ClientOptions } from '../../src/index.js';
import { listenLoopback, type ListeningServer } from '../../mocks/node-bridge.js';
import { writeFlushed } from '../helpers/compress.js';
import { v1Card } from '../helpers/recording-agent.js';

const servers: ListeningServer[] = [];
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ARTIFACT_TEXT = 'A long compressible answer. '.repeat(20_000);
const task = (state: string) => ({ id: 't-1', contextId: 'ctx-1', status: { state } });

async function readJson(req: IncomingMessage): Promise<{ id: number | string; method: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number | string; method: string };
}

/** A gzipping agent; the stream writes its next event only after `next()` was called for the one before. */
async function gzipAgent(): Promise<{ url: string; acceptEncodings: Array<string | undefined>; next: () => void; written: () => number }> {
  const acceptEncodings: Array<string | undefined> = [];
  let release: (() => void) | undefined;
  let owed = 0;
  let written = 0;
  const gate = () =>
    new Promise<void>((resolve) => {
      if (owed > 0) {
        owed--;
        resolve();
      } else release = resolve;
    });
  let base = '';
  const server = await listenLoopback((req: IncomingMessage, res: ServerResponse) => {
    acceptEncodings.push(req.headers['accept-encoding']);
    void (async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(JSON.stringify(v1Card(base, 'gzip-agent'))));
        return;
      }
      const rpc = await readJson(req);
      if (rpc.method === 'SendMessage') {
        const result = { task: { ...task('TASK_STATE_COMPLETED'), artifacts: [{ artifactId: 'a-1', parts: [{ text: ARTIFACT_TEXT }] }] } };
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result })));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.flushHeaders();
      const gz = zlib.createGzip();
      const frames = [
        { task: task('TASK_STATE_WORKING') },
        ...[0, 1, 2].map((i) => ({ artifactUpdate: { taskId: 't-1', contextId: 'ctx-1', append: i > 0, artifact: { artifactId: 'a-1', parts: [{ text: `chunk ${i} ` }] } } })),
        { statusUpdate: { taskId: 't-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } } },
      ];
      for (const [i, result] of frames.entries()) {
        if (i > 0) await gate();
        res.write(await writeFlushed(gz, `data: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result })}\n\n`));
        written++;
      }
      gz.on('data', (b: Buffer) => res.write(b));
      gz.on('end', () => res.end());
      gz.end();
    })();
  });
  servers.push(server);
  base = server.url;
  return {
    url: server.url,
    acceptEncodings,
    next: () => {
      const r = release;
      release = undefined;
      if (r !== undefined) r();
      else owed++;
    },
    written: () => written,
  };
}

describe('A2AClient against a gzipping agent', () => {
  it('types compression as an optional boolean', () => {
    expectTypeOf<ClientOptions['compression']>().toEqualTypeOf<boolean | undefined>();
  });

  it.each([true, false])('decodes the card, a unary answer and a stream event by event (compression: %s)', async (compression) => {
    const agent = await gzipAgent();
    const client = await A2AClient.connect(agent.url, { compression, retry: false, timeouts: { streamIdleMs: 3_000 } });
    clients.push(client);
    expect(client.name).toBe('gzip-agent');

    const result = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'hi' }] } });
    expect(result).toMatchObject({ kind: 'task', id: 't-1' });
    const artifacts = 'artifacts' in result ? result.artifacts : undefined;
    expect(artifacts?.[0]?.parts[0]).toMatchObject({ kind: 'text', text: ARTIFACT_TEXT });

    // Each event is seen while the agent still holds the next one back (it waits for `next()`).
    const seen: number[] = [];
    for await (const ev of client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'stream' }] } })) {
      seen.push(agent.written());
      expect(ev).toBeDefined();
      agent.next();
    }
    expect(seen).toEqual([1, 2, 3, 4, 5]);

    const expected = compression ? expect.stringMatching(/^gzip, deflate, br/) : undefined;
    expect(agent.acceptEncodings).toEqual([expected, expected, expected]);
  });
});
