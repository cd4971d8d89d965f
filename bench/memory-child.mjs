/**
 * Memory probe, run in its own process with `--expose-gc`: consumes one long stream and reports
 * peak RSS and heap growth over IPC. argv: <contender: raw|stream|streamLean|sendStreamingMessage> <baseUrl>
 * <events> [<textBytes>]. `streamLean` is `stream(text, { accumulate: false })`; `textBytes` > 1 asks the
 * bench server for chunks of that size (a long answer: events × textBytes).
 */
import { loadSdk } from './sdk.mjs';
import { rawClient, rpcUrlOf } from './raw.mjs';

const [contender, baseUrl, eventsArg, textArg] = process.argv.slice(2);
const events = Number(eventsArg);
const textBytes = Number(textArg ?? 1);
/** The request text asking the bench server for `n` events (of `textBytes` each when > 1). */
const ask = (n) => (textBytes > 1 ? `stream ${n} write=32k text=${textBytes}` : `stream ${n}`);
const gc = globalThis.gc;

async function open() {
  if (contender === 'raw') {
    const c = rawClient(await rpcUrlOf(baseUrl));
    return { consume: (n, onItem) => c.stream(n, ask(n)).then((count) => { onItem(count); return count; }), close: c.close, perItem: false };
  }
  const { sdk, error } = await loadSdk();
  if (!sdk) throw new Error(`a2a-resilient did not load: ${error}`);
  const client = await sdk.A2AClient.connect(baseUrl);
  const consume = async (n, onItem) => {
    let count = 0;
    const events = contender === 'stream' || contender === 'streamLean';
    const iter = events
      ? client.stream(ask(n), contender === 'streamLean' ? { accumulate: false } : {})
      : client.sendStreamingMessage({ message: { role: 'user', parts: [{ kind: 'text', text: ask(n) }] } });
    for await (const ev of iter) {
      if (events && sdk.isTerminalError(ev)) throw new Error(`stream error event: ${ev.error?.message}`);
      count++;
      onItem(count);
    }
    return count;
  };
  return { consume, close: () => client.close(), perItem: true };
}

async function main() {
  if (typeof gc !== 'function') throw new Error('run with --expose-gc');
  const session = await open();
  await session.consume(Math.min(2_000, events), () => {}); // warm-up: code, pools, JIT
  gc();
  gc();
  const base = process.memoryUsage();
  const samples = [];
  const every = Math.max(1, Math.floor(events / 10));
  let peakHeap = base.heapUsed;
  const got = await session.consume(events, (count) => {
    if (session.perItem && count % every === 0) {
      gc();
      const m = process.memoryUsage();
      samples.push(m.heapUsed);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }
  });
  gc();
  gc();
  const end = process.memoryUsage();
  await session.close();
  const mb = (b) => b / 1048576;
  process.send({
    ok: true,
    contender,
    events,
    items: got,
    baseHeapMB: mb(base.heapUsed),
    endHeapMB: mb(end.heapUsed),
    heapGrowthMB: mb(end.heapUsed - base.heapUsed),
    maxMidStreamGrowthMB: mb(Math.max(0, ...samples.map((h) => h - base.heapUsed))),
    midStreamHeapMB: samples.map(mb),
    peakRssMB: process.resourceUsage().maxRSS / 1024,
  });
}

main().then(
  () => process.disconnect(),
  (err) => {
    process.send({ ok: false, contender, error: err instanceof Error ? err.message : String(err) });
    process.disconnect();
  },
);
