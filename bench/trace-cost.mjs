/**
 * What tracing costs, in CPU time per unit of work of the client stack alone (no sockets, no server
 * process, so it is steady on a noisy machine): the real `A2AClient` over a fake undici dispatcher
 * that answers `SendMessage` with a small task and `SendStreamingMessage` with SSE chunks of 16
 * artifact updates. Three ways, each in its own child process, interleaved three times:
 *   off        nothing registered (the API installed but a no-op) — what users without tracing pay;
 *   propagate  a W3C propagator and the AsyncLocalStorage context manager, no tracer provider;
 *   on         plus a tracer provider (batch processor, dropping exporter): a span per call.
 *   npm run build && node bench/trace-cost.mjs [calls] [events]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MODES = ['off', 'propagate', 'on'];
const calls = Number(process.argv[2] ?? 40_000);
const events = Number(process.argv[3] ?? 200_000);

async function child(mode) {
  const { context, propagation, trace } = await import('@opentelemetry/api');
  if (mode !== 'off') {
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  if (mode === 'on') {
    const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const exporter = { export: (spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 65_536, maxExportBatchSize: 4_096 })] }));
  }
  const { A2AClient } = await import('../dist/src/index.js');
  const { agentCard, streamFrames, unaryBody } = await import('./fixtures.mjs');
  const client = new A2AClient(agentCard(1, 'replay'), { dispatcher: new FakeDispatcher(events, streamFrames, unaryBody) });
  const params = { message: { parts: [{ kind: 'text', text: 'go' }] } };
  const unary = async () => {
    let next = 0;
    const worker = async () => {
      while (next++ < calls) await client.sendMessage(params);
    };
    await Promise.all(Array.from({ length: 64 }, worker));
  };
  const stream = async () => {
    for await (const ev of client.sendStreamingMessage(params)) if (!ev) throw new Error('empty event');
  };
  const cpu = async (fn, units) => {
    await fn();
    const samples = [];
    for (let i = 0; i < 3; i++) {
      const before = process.cpuUsage();
      await fn();
      const used = process.cpuUsage(before);
      samples.push(((used.user + used.system) * 1000) / units);
    }
    return samples.sort((a, b) => a - b)[1];
  };
  const result = { unary: await cpu(unary, calls), stream: await cpu(stream, events) };
  await client.close();
  process.stdout.write(JSON.stringify(result));
}

/** Answers a send with a small task, a streaming send with SSE chunks (16 events each, four per macrotask). */
class FakeDispatcher {
  constructor(events, streamFrames, unaryBody) {
    this.events = events;
    this.streamFrames = streamFrames;
    this.unaryBody = unaryBody;
  }
  dispatch(opts, handler) {
    const request = JSON.parse(opts.body);
    const id = JSON.stringify(request.id);
    const controller = { aborted: false, abort() { this.aborted = true; }, pause() {}, resume() {} };
    handler.onRequestStart?.(controller, {});
    if (request.method !== 'SendStreamingMessage') {
      queueMicrotask(() => {
        handler.onResponseStart?.(controller, 200, { 'content-type': 'application/json' }, 'OK');
        handler.onResponseData?.(controller, Buffer.from(this.unaryBody(id, false)));
        handler.onResponseEnd?.(controller, {});
      });
      return true;
    }
    const frames = this.streamFrames(id, false);
    setImmediate(() => {
      handler.onResponseStart?.(controller, 200, { 'content-type': 'text/event-stream' }, 'OK');
      handler.onResponseData?.(controller, Buffer.from(frames.first));
      const chunk = Buffer.from(frames.update.repeat(16));
      let sent = 0;
      const pump = () => {
        if (controller.aborted) return;
        for (let k = 0; k < 4 && sent < this.events; k++, sent += 16) handler.onResponseData?.(controller, chunk);
        if (sent < this.events) setImmediate(pump);
        else {
          handler.onResponseData?.(controller, Buffer.from(frames.last));
          handler.onResponseEnd?.(controller, {});
        }
      };
      pump();
    });
    return true;
  }
  close() {
    return Promise.resolve();
  }
  destroy() {
    return Promise.resolve();
  }
}

// The parent runs the children; a child measures one mode.
if (process.env.TRACE_COST_MODE === undefined) {
  const runs = Object.fromEntries(MODES.map((m) => [m, []]));
  for (let round = 0; round < 3; round++) {
    for (const mode of MODES) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), String(calls), String(events)], { env: { ...process.env, TRACE_COST_MODE: mode }, encoding: 'utf8' });
      runs[mode].push(JSON.parse(out));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = { unary: median(runs.off.map((r) => r.unary)), stream: median(runs.off.map((r) => r.stream)) };
  console.log(`CPU per unit of work, median of 3 child processes (${calls} sendMessage calls, ${events}-event streams), ${process.version}`);
  console.log('mode        sendMessage ns/call   vs off   sendStreamingMessage ns/event   vs off');
  for (const mode of MODES) {
    const unary = median(runs[mode].map((r) => r.unary));
    const stream = median(runs[mode].map((r) => r.stream));
    console.log(`${mode.padEnd(10)} ${unary.toFixed(0).padStart(12)} ${(unary / base.unary).toFixed(2).padStart(14)} ${stream.toFixed(0).padStart(22)} ${(stream / base.stream).toFixed(2).padStart(14)}`);
  }
} else {
  await child(process.env.TRACE_COST_MODE);
}
