/**
 * CPU per streamed event of the client stack alone, without sockets or a server process: the real
 * `A2AClient` over a fake undici dispatcher that replays SSE chunks (16 events each), against the raw
 * floor (eventsource-parser + JSON.parse on the same chunks). Steadier than the socket benchmark on a
 * noisy machine, so it is the one to use when tuning the per-event path (also under `--cpu-prof`):
 *   npm run build && node bench/stream-cpu.mjs [events] [raw|ssm|stream]
 */
import { createParser } from 'eventsource-parser';
import { A2AClient } from '../dist/src/index.js';
import { agentCard, streamFrames } from './fixtures.mjs';

const events = Number(process.argv[2] ?? 200_000);
const only = process.argv[3];
const PER_CHUNK = 16;

/** Answers every dispatch with an SSE stream of `events` artifact updates, four chunks per macrotask. */
class ReplayDispatcher {
  dispatch(opts, handler) {
    const frames = streamFrames(JSON.stringify(JSON.parse(opts.body).id), false);
    const controller = { aborted: false, abort() { this.aborted = true; }, pause() {}, resume() {} };
    handler.onRequestStart?.(controller, {});
    setImmediate(() => {
      handler.onResponseStart?.(controller, 200, { 'content-type': 'text/event-stream' }, 'OK');
      handler.onResponseData?.(controller, Buffer.from(frames.first));
      const chunk = Buffer.from(frames.update.repeat(PER_CHUNK));
      let sent = 0;
      const pump = () => {
        if (controller.aborted) return;
        for (let k = 0; k < 4 && sent < events; k++, sent += PER_CHUNK) handler.onResponseData?.(controller, chunk);
        if (sent < events) setImmediate(pump);
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

const client = new A2AClient(agentCard(1, 'replay'), { dispatcher: new ReplayDispatcher() });
const rawChunk = Buffer.from(streamFrames('"x"', false).update.repeat(PER_CHUNK));

const contenders = {
  async raw() {
    let count = 0;
    const parser = createParser({ onEvent: (e) => { if (JSON.parse(e.data).result) count++; } });
    const decoder = new TextDecoder();
    for (let sent = 0; sent < events; ) {
      for (let k = 0; k < 4 && sent < events; k++, sent += PER_CHUNK) parser.feed(decoder.decode(rawChunk, { stream: true }));
      await new Promise(setImmediate);
    }
    return count;
  },
  async ssm() {
    let count = 0;
    for await (const ev of client.sendStreamingMessage({ message: { parts: [{ kind: 'text', text: 'go' }] } })) if (ev) count++;
    return count;
  },
  async stream() {
    let count = 0;
    for await (const ev of client.stream('go')) if (ev) count++;
    return count;
  },
};

const keys = only ? [only] : Object.keys(contenders);
for (const key of keys) for (let i = 0; i < 2; i++) await contenders[key]();
const ns = Object.fromEntries(keys.map((k) => [k, []]));
for (let rep = 0; rep < 5; rep++) {
  for (const key of keys) {
    const before = process.cpuUsage();
    await contenders[key]();
    const used = process.cpuUsage(before);
    ns[key].push(((used.user + used.system) * 1000) / events);
  }
}
for (const key of keys) {
  const sorted = ns[key].sort((a, b) => a - b);
  console.log(`${key.padEnd(8)} ${sorted[2].toFixed(0).padStart(5)} ns CPU per event (median of 5)`);
}
await client.close();
