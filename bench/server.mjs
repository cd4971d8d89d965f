/**
 * The benchmark agent, run as a CHILD process (`fork('bench/server.mjs', [modes])`) so it does not
 * share the client's event loop. It opens one loopback server per mode on an ephemeral port and
 * reports `{ type: 'ready', ports }` over IPC. Modes:
 *   ok    answers at once: the card, SendMessage (a completed Task), SendStreamingMessage (SSE)
 *   hang  serves the card, accepts calls and never answers them
 *   503   serves the card, answers every call with HTTP 503
 * The realistic workloads (workload-defs.mjs) ask through the request text: `stream <N> write=<32k|frame>
 * text=<bytes> [gap=<µs>]` picks the write pattern (sse-writer.mjs) and chunk size, `task realistic`
 * answers a realistic Task. `/.well-known/agent-card-v03.json` is a card with the v0.3 interface only.
 * The process exits when the parent disconnects or sends `{ type: 'stop' }`.
 */
import { createServer } from 'node:http';
import { agentCard, requestedEvents, streamFrames, unaryBody } from './fixtures.mjs';
import { realisticUnaryBody, sizedStreamFrames } from './fixtures-realistic.mjs';
import { writeBatched, writePaced, writePerFrame } from './sse-writer.mjs';
import { decodeRequest } from './workload-defs.mjs';

const modes = (process.argv[2] ?? 'ok').split(',');
const sseBatch = Number(process.env.BENCH_SSE_BATCH ?? '16') || 16;
const servers = [];

/** Writes N update frames in batches, honouring backpressure, then the last frame. */
async function writeStream(res, frames, count) {
  res.write(frames.first);
  let sent = 0;
  while (sent < count) {
    const n = Math.min(sseBatch, count - sent);
    const ok = res.write(n === 1 ? frames.update : frames.update.repeat(n));
    sent += n;
    if (!ok) await new Promise((resolve) => res.once('drain', resolve));
    if (res.destroyed) return;
  }
  res.end(frames.last);
}

function handleRpc(req, res, raw) {
  let msg;
  try {
    msg = JSON.parse(raw);
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}');
    return;
  }
  const idJson = JSON.stringify(msg.id ?? null);
  const method = msg.method;
  const legacy = method === 'message/send' || method === 'message/stream';
  const text = msg.params?.message?.parts?.[0]?.text;
  if (method === 'SendMessage' || method === 'message/send') {
    const body = text === 'task realistic' ? realisticUnaryBody(idJson, legacy) : unaryBody(idJson, legacy);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    return;
  }
  if (method === 'SendStreamingMessage' || method === 'message/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const spec = typeof text === 'string' ? decodeRequest(text) : null;
    if (spec && spec.write !== 'events') {
      const frames = sizedStreamFrames(idJson, legacy, spec.text);
      const done =
        spec.write === 'frame'
          ? writePerFrame(res, frames, spec.events, spec.gapUs)
          : spec.write === 'paced'
            ? writePaced(res, frames, spec.events, spec.gapUs)
            : writeBatched(res, frames, spec.events);
      done.catch((err) => {
        process.stderr.write(`bench server stream error: ${err}\n`);
        res.destroy();
      });
      return;
    }
    writeStream(res, streamFrames(idJson, legacy), requestedEvents(msg.params, 100)).catch((err) => {
      process.stderr.write(`bench server stream error: ${err}\n`);
      res.destroy();
    });
    return;
  }
  const body = `{"jsonrpc":"2.0","id":${idJson},"error":{"code":-32601,"message":"Method not found"}}`;
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
}

function listen(mode, index) {
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const port = server.address().port;
    if (req.method === 'GET' && (req.url === '/.well-known/agent-card.json' || req.url === '/.well-known/agent.json')) {
      const body = JSON.stringify(agentCard(port, `bench-${mode}-${index}`));
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (req.method === 'GET' && req.url === '/.well-known/agent-card-v03.json') {
      const card = agentCard(port, `bench-${mode}-${index}-v03`);
      const body = JSON.stringify({ ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    if (mode === 'hang') return; // accept and never answer
    if (mode === '503') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handleRpc(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

function stop() {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  process.disconnect?.();
}

const ports = await Promise.all(modes.map(listen));
process.on('message', (m) => {
  if (m?.type === 'stop') stop();
});
process.on('disconnect', () => {
  for (const s of servers) s.closeAllConnections();
  process.exit(0);
});
process.send?.({ type: 'ready', ports });
