/**
 * One contender alone, for CPU profiles:
 *   node --cpu-prof --cpu-prof-dir=bench/profiles bench/profile.mjs <what> [count]
 *   node bench/cpuprofile-top.mjs bench/profiles/<file>.cpuprofile
 * <what>: invoke | sendMessage | stream | sendStreamingMessage | raw-unary | raw-stream
 * (unary counts are calls at concurrency 64, stream counts are events).
 */
import { runConcurrent } from './load.mjs';
import { rawClient, rpcUrlOf } from './raw.mjs';
import { loadSdk, textParams } from './sdk.mjs';
import { startAgents } from './server-control.mjs';

const what = process.argv[2] ?? 'invoke';
const count = Number(process.argv[3] ?? (what.toLowerCase().includes('stream') ? 20_000 : 20_000));
const agents = await startAgents(['ok']);
const url = agents.urls[0];
try {
  let session;
  if (what.startsWith('raw')) {
    const c = rawClient(await rpcUrlOf(url));
    session = { unary: c.unary, stream: c.stream, close: c.close };
  } else {
    const { sdk, error } = await loadSdk();
    if (!sdk) throw new Error(`a2a-resilient did not load: ${error}`);
    const client = await sdk.A2AClient.connect(url);
    const params = textParams('hi');
    session = {
      unary: what === 'invoke' ? () => client.invoke('hi') : () => client.sendMessage(params),
      async stream(n) {
        let k = 0;
        const it = what === 'stream' ? client.stream(`stream ${n}`) : client.sendStreamingMessage(textParams(`stream ${n}`));
        for await (const ev of it) if (ev) k++;
        return k;
      },
      close: () => client.close(),
    };
  }
  const t0 = performance.now();
  if (what.toLowerCase().includes('stream')) {
    const got = await session.stream(count);
    const ms = performance.now() - t0;
    console.log(`${what}: ${got} items, ${Math.round((count / ms) * 1000)} events/s`);
  } else {
    const ms = await runConcurrent(count, 64, session.unary);
    console.log(`${what}: ${Math.round((count / ms) * 1000)} calls/s`);
  }
  await session.close();
} finally {
  await agents.stop();
}
