/**
 * A minimal A2A v1.0 gRPC agent for the gRPC bench (run as a child process, `fork`ed by
 * `grpc.mjs`): `@grpc/grpc-js` with the built SDK's codecs, every answer encoded ONCE and written as
 * bytes, so the server costs as little as possible and the client is what is measured (the official
 * server's in-memory store is quadratic on long streams). `SendMessage`: `task small` → a completed
 * Task with one short artifact, `task realistic` → the 21 KB Task of `fixtures-realistic.mjs`.
 * `SendStreamingMessage`: `stream <N> text=<bytes>` → a submitted Task, N artifact-update chunks of
 * that many bytes, a completed status update. The card (HTTP, `/.well-known/agent-card.json`)
 * advertises the gRPC interface as `127.0.0.1:<port>`. Reports `{ ports: [http, grpc] }` over IPC.
 */
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { build } from 'esbuild';
import { fillerText, realisticTask } from './fixtures-realistic.mjs';

// The codecs straight from src (dist/ is bundled and does not export them): bundled once into
// node_modules/.cache, which resolves the peers from the repository's node_modules.
const runtimeFile = fileURLToPath(new URL('../node_modules/.cache/a2a-bench/grpc-runtime.mjs', import.meta.url));
await build({ entryPoints: [fileURLToPath(new URL('../src/protocol/grpc/grpc-runtime.ts', import.meta.url))], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: runtimeFile, logLevel: 'error' });
const { runtime } = await import(pathToFileURL(runtimeFile).href);
const service = runtime.services['1.0'];
const send = service.methods.get('SendMessage');
const streaming = service.methods.get('SendStreamingMessage');

const smallTask = { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ artifactId: 'a-1', parts: [{ text: 'ok' }] }] };
const UNARY = {
  'task small': Buffer.from(send.encodeResponse({ task: smallTask })),
  'task realistic': Buffer.from(send.encodeResponse({ task: realisticTask(false) })),
};
const ids = { taskId: 'task-1', contextId: 'ctx-1' };
const SUBMITTED = Buffer.from(streaming.encodeResponse({ task: { id: 'task-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_SUBMITTED' } } }));
const COMPLETED = Buffer.from(streaming.encodeResponse({ statusUpdate: { ...ids, status: { state: 'TASK_STATE_COMPLETED' } } }));
const chunks = new Map();
function chunk(bytes) {
  let b = chunks.get(bytes);
  if (!b) {
    b = Buffer.from(streaming.encodeResponse({ artifactUpdate: { ...ids, artifact: { artifactId: 'a-1', parts: [{ text: fillerText(bytes) }] }, append: true } }));
    chunks.set(bytes, b);
  }
  return b;
}

const textOf = (request) => (request?.message?.parts ?? []).map((p) => p.text ?? '').join('');
const def = (codec) => ({
  path: codec.path, requestStream: false, responseStream: codec.serverStreaming, originalName: codec.name,
  requestSerialize: (b) => b, requestDeserialize: (b) => codec.decodeRequest(b), responseSerialize: (b) => b, responseDeserialize: (b) => b,
});

const server = new grpc.Server();
server.addService({ SendMessage: def(send), SendStreamingMessage: def(streaming) }, {
  SendMessage(call, callback) {
    const answer = UNARY[textOf(call.request)];
    if (answer) callback(null, answer);
    else callback({ code: grpc.status.INVALID_ARGUMENT, details: 'unknown request' });
  },
  async SendStreamingMessage(call) {
    const m = /^stream (\d+) text=(\d+)$/.exec(textOf(call.request));
    if (!m) return call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: 'unknown request' });
    const n = Number(m[1]);
    const body = chunk(Number(m[2]));
    let cancelled = false;
    call.on('cancelled', () => (cancelled = true));
    call.write(SUBMITTED);
    for (let i = 0; i < n && !cancelled; i++) {
      if (!call.write(body)) await new Promise((resolve) => call.once('drain', resolve));
    }
    call.write(COMPLETED);
    call.end();
  },
});

const grpcPort = await new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
const card = JSON.stringify({
  name: 'bench-grpc', description: 'gRPC bench agent', version: '1.0.0',
  supportedInterfaces: [{ url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
});
const http = createServer((req, res) => {
  if (req.url === '/.well-known/agent-card.json') res.writeHead(200, { 'content-type': 'application/json' }).end(card);
  else res.writeHead(404).end();
});
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
process.send?.({ ports: [http.address().port, grpcPort] });
process.on('disconnect', () => {
  server.forceShutdown();
  http.close();
});
