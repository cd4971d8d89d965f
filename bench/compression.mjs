/**
 * What `compression: true` saves and costs (issue 22, point 1), over REAL loopback sockets: a server in a
 * child process (pinned to the server core when `taskset` works) answers a v1.0 agent's calls
 * (the HTTP+JSON binding: no JSON-RPC id to echo, so every answer is precomputed) with a Task carrying a 1 MB or a 10 MB mostly-text artifact, or an SSE stream of 2,000 ~400 B frames
 * (flushed after every frame, as a streaming server must). It compresses when the request's
 * Accept-Encoding allows, with the coding the URL prefers (`/gzip/…`, `/br/…`), precomputed at start-up
 * so its own CPU is not in the client's numbers (real servers compress per response: the start-up cost
 * is reported as the server's CPU per response). The client is the BUILT SDK (`npm run build` first):
 * `A2AClient` on the undici engine with `compression` off (identity) or on.
 *
 * Per cell, medians over the runs: bytes on the wire (body bytes the server wrote), client CPU per call
 * (process.cpuUsage, user + system), wall time per call; plus wall time plus the transfer time of the
 * wire bytes on a 100 Mbit/s and a 1 Gbit/s link (computed, not measured: loopback has no such limit).
 *   node bench/compression.mjs            (= npm run bench:compression)
 * Env: BENCH_COMPRESSION_RUNS (7), BENCH_PIN=0 (no taskset).
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { CLIENT_CPU, SERVER_CPU, pinProcess, pinningNote } from './pinning.mjs';
import { median } from './stats.mjs';

const DIST = new URL('../dist/src/index.js', import.meta.url);
const RUNS = Number(process.env.BENCH_COMPRESSION_RUNS ?? 7);
const STREAM_FRAMES = 2_000;

// ---------------------------------------------------------------- server (child process)

/**
 * Deterministic "mostly text" (`seed` → a function of a byte count): words from a 2,000-word vocabulary
 * drawn with a skew, as prose compresses (~3.5× with gzip), not as a repeated string would.
 */
function proseSource(seed) {
  let s = seed >>> 0 || 1;
  // xorshift32
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'shi', 'ven', 'dor', 'ple', 'qua', 'zi', 'ber', 'tion', 'al', 'ex'];
  const vocab = Array.from({ length: 2_000 }, () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => syllables[Math.floor(rand() * syllables.length)]).join(''));
  return (bytes) => {
    const out = [];
    let n = 0;
    while (n < bytes) {
      let w = vocab[Math.floor(Math.pow(rand(), 2) * vocab.length)];
      if (rand() < 0.08) w += rand() < 0.5 ? '.' : ',';
      out.push(w);
      n += w.length + 1;
    }
    return out.join(' ').slice(0, bytes);
  };
}

const BR = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };
const encoders = { gzip: (b) => zlib.gzipSync(b, { level: 6 }), br: (b) => zlib.brotliCompressSync(b, BR) };

/** Body variants of one unary answer: identity and each coding, with the CPU each coding took. */
function variants(json) {
  const identity = Buffer.from(json);
  const out = { identity: { bytes: identity, cpuMs: 0 } };
  for (const [name, encode] of Object.entries(encoders)) {
    const t = process.cpuUsage();
    const bytes = encode(identity);
    const d = process.cpuUsage(t);
    out[name] = { bytes, cpuMs: (d.user + d.system) / 1000 };
  }
  return out;
}

/** A stream's frames as the server writes them: identity, or through one compressor flushed after each frame. */
async function streamVariants(frames) {
  const out = { identity: { chunks: frames.map((f) => Buffer.from(f)), cpuMs: 0 } };
  for (const name of Object.keys(encoders)) {
    const t = process.cpuUsage();
    const handle = name === 'gzip' ? zlib.createGzip({ level: 6 }) : zlib.createBrotliCompress(BR);
    const flush = name === 'gzip' ? zlib.constants.Z_SYNC_FLUSH : zlib.constants.BROTLI_OPERATION_FLUSH;
    let parts = [];
    handle.on('data', (c) => parts.push(c));
    const chunks = [];
    for (const f of frames) {
      handle.write(f);
      await new Promise((resolve) => handle.flush(flush, resolve));
      chunks.push(Buffer.concat(parts));
      parts = [];
    }
    await new Promise((resolve) => {
      handle.once('end', resolve);
      handle.end();
    });
    if (parts.length > 0) chunks.push(Buffer.concat(parts));
    const d = process.cpuUsage(t);
    out[name] = { chunks, cpuMs: (d.user + d.system) / 1000 };
  }
  return out;
}

async function serve() {
  const prose = proseSource(1);
  const artifact = (bytes) => ({ artifactId: `a-${bytes}`, name: 'report', parts: [{ text: prose(bytes) }] });
  const task = (bytes) => ({ id: 't-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [artifact(bytes)] });
  const frames = Array.from({ length: STREAM_FRAMES }, (_, i) => {
    const result = { artifactUpdate: { taskId: 't-1', contextId: 'ctx-1', append: i > 0, artifact: { artifactId: 'a-s', parts: [{ text: prose(290) }] } } };
    return `data: ${JSON.stringify(result)}\n\n`;
  });
  // The stream ends with its task's terminal state (else the client resubscribes).
  frames.push(`data: ${JSON.stringify({ statusUpdate: { taskId: 't-1', contextId: 'ctx-1', status: { state: 'TASK_STATE_COMPLETED' } } })}\n\n`);
  const unary = {
    '1mb': variants(JSON.stringify({ task: task(1_000_000) })),
    '10mb': variants(JSON.stringify({ task: task(10_000_000) })),
  };
  const stream = await streamVariants(frames);
  let bytesOut = 0;
  let base = '';
  const card = () => ({
    name: 'compression-bench',
    description: 'bench',
    version: '1.0.0',
    supportedInterfaces: [{ url: base, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
  });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/stats') {
        res.end(JSON.stringify({ bytesOut }));
        bytesOut = 0;
        return;
      }
      const [, prefer] = url.pathname.split('/');
      const accepts = (req.headers['accept-encoding'] ?? '').split(',').map((s) => s.trim());
      const coding = accepts.includes(prefer) ? prefer : 'identity';
      const headers = coding === 'identity' ? {} : { 'content-encoding': coding, vary: 'accept-encoding' };
      if (req.method === 'GET') {
        base = `http://127.0.0.1:${server.address().port}/${prefer}/`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(card()));
        return;
      }
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const text = sent.message?.parts?.[0]?.text ?? '';
      if (url.pathname.endsWith('/message:send')) {
        const body = unary[text][coding].bytes;
        bytesOut += body.length;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
        res.end(body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
      const list = stream[coding].chunks;
      let i = 0;
      const pump = () => {
        while (i < list.length) {
          const c = list[i++];
          bytesOut += c.length;
          if (!res.write(c)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const costs = {};
    for (const [k, v] of Object.entries(unary)) costs[k] = { gzip: v.gzip.cpuMs, br: v.br.cpuMs };
    costs.stream = { gzip: stream.gzip.cpuMs, br: stream.br.cpuMs };
    process.send({ port: server.address().port, serverCpuMs: costs });
  });
}

// ---------------------------------------------------------------- client (this process)

const CELLS = [
  { key: 'off', compression: false, prefer: 'gzip' },
  { key: 'gzip', compression: true, prefer: 'gzip' },
  { key: 'br', compression: true, prefer: 'br' },
];
const WORKLOADS = [
  { key: '1mb', label: 'Task, 1 MB artifact', kind: 'unary' },
  { key: '10mb', label: 'Task, 10 MB artifact', kind: 'unary' },
  { key: 'stream', label: 'SSE, 2,000 × ~400 B frames', kind: 'stream' },
];

async function measure() {
  if (!existsSync(DIST)) {
    process.stderr.write('bench/compression.mjs measures the built SDK: run `npm run build` first.\n');
    process.exit(1);
  }
  const { A2AClient } = await import(DIST.href);
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
  });
  const serverPinned = pinProcess(child.pid, SERVER_CPU);
  const clientPinned = pinProcess(process.pid, CLIENT_CPU);
  const origin = `http://127.0.0.1:${ready.port}`;
  const stats = async () => (await (await fetch(`${origin}/stats`)).json()).bytesOut;
  const rows = {};
  try {
    for (const w of WORKLOADS) {
      rows[w.key] = {};
      for (const cell of CELLS) {
        const client = await A2AClient.connect(`${origin}/${cell.prefer}`, {
          compression: cell.compression,
          retry: false,
          circuitBreaker: false,
          limits: { maxResponseBytes: 64 * 1024 * 1024 },
        });
        const message = { message: { role: 'user', parts: [{ kind: 'text', text: w.key }] } };
        const once = async () => {
          if (w.kind === 'unary') {
            const task = await client.sendMessage(message);
            if (!task.artifacts?.[0]?.parts?.[0]?.text) throw new Error('no artifact');
          } else {
            let n = 0;
            for await (const ev of client.sendStreamingMessage(message)) if (ev) n++;
            if (n !== STREAM_FRAMES + 1) throw new Error(`got ${n} events`);
          }
        };
        await once();
        await once();
        await stats();
        const cpu = [];
        const wall = [];
        const wire = [];
        for (let r = 0; r < RUNS; r++) {
          const t0 = performance.now();
          const c0 = process.cpuUsage();
          await once();
          const c = process.cpuUsage(c0);
          wall.push(performance.now() - t0);
          cpu.push((c.user + c.system) / 1000);
          wire.push(await stats());
        }
        await client.close();
        rows[w.key][cell.key] = { wireBytes: median(wire), cpuMs: median(cpu), wallMs: median(wall) };
        const x = rows[w.key][cell.key];
        process.stderr.write(`  ${w.key} ${cell.key}: ${(x.wireBytes / 1e6).toFixed(2)} MB, ${x.cpuMs.toFixed(1)} ms CPU, ${x.wallMs.toFixed(1)} ms\n`);
      }
    }
  } finally {
    child.kill();
  }
  const pinning = serverPinned && clientPinned ? pinningNote() : 'UNPINNED (taskset unavailable or failed)';
  return { date: new Date().toISOString(), node: process.version, runs: RUNS, pinning, serverCpuMs: ready.serverCpuMs, rows };
}

/** Transfer time of `bytes` on a link of `bitsPerSecond`, in ms. */
const linkMs = (bytes, bitsPerSecond) => (bytes * 8 * 1000) / bitsPerSecond;

function render(result) {
  const lines = [
    `Compression (${result.node}, median of ${result.runs}, ${result.pinning})`,
    '',
    '| workload | client | wire bytes | client CPU / call | wall / call (loopback) | + 100 Mbit/s link | + 1 Gbit/s link | server CPU to compress |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const w of WORKLOADS) {
    for (const cell of CELLS) {
      const x = result.rows[w.key][cell.key];
      const server = cell.key === 'off' ? '—' : `${result.serverCpuMs[w.key][cell.key].toFixed(1)} ms`;
      const label = cell.key === 'off' ? 'off (identity)' : `on, server sends ${cell.key}`;
      lines.push(
        `| ${w.label} | ${label} | ${(x.wireBytes / 1e6).toFixed(2)} MB | ${x.cpuMs.toFixed(1)} ms | ${x.wallMs.toFixed(1)} ms | ${(x.wallMs + linkMs(x.wireBytes, 1e8)).toFixed(0)} ms | ${(x.wallMs + linkMs(x.wireBytes, 1e9)).toFixed(0)} ms | ${server} |`,
      );
    }
  }
  return lines.join('\n');
}

if (process.argv[2] === 'serve') {
  await serve();
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measure();
  const out = fileURLToPath(new URL('./compression.json', import.meta.url));
  await writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${render(result)}\n\nWrote ${out}\n`);
}
