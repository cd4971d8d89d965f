/**
 * The contenders of the realistic workloads, each opened for one workload (wire version, request
 * text) as `{ run(units) → items, close() }`:
 *   raw          undici.request + eventsource-parser + JSON.parse (unary: undici.request + JSON.parse)
 *   rawIter      the same stream read through an async generator (instruction mode only)
 *   official     @a2a-js/sdk ClientFactory client (v0.3: a factory whose JSON-RPC transport factory has
 *                `legacyCompat: { enabled: true }`, on a v0.3-only card → its LegacyJsonRpcTransport)
 *   ssm          ours `sendStreamingMessage(params)`     stream  ours `stream(text)` (the final answer's length read)
 *   streamLean   ours `stream(text, { accumulate: false })` (long-answer rows of the wall-clock mode)
 *   sendMessage  ours `sendMessage(params)`              invoke  ours `invoke(text)`
 * `run(units)` performs one measured unit of work: `units` events (over `concurrency` streams of
 * `perUnit` events when the workload is concurrent, in waves of `concurrency` streams) or `units`
 * calls at the workload's concurrency. Each contender's modules are imported only when it is opened,
 * so a process (under valgrind: slow to start) loads only what it measures.
 */
import { runConcurrent } from './load.mjs';
import { countOurStream, loadSdk, textParams } from './sdk.mjs';
import { encodeRequest } from './workload-defs.mjs';

/** Base URL of the replayed agent (never contacted: the replay dispatcher answers in-process). */
const REPLAY_BASE_URL = 'http://127.0.0.1:40001';

/** TaskState.TASK_STATE_COMPLETED in the official client's numeric enum. */
const OFFICIAL_COMPLETED = 3;

/** The SDK's default `accumulate`: the most characters of answer a `stream()` final event carries. */
const DEFAULT_ANSWER_CHARS = 1_048_576;

/** Characters of every final answer ours `stream()` read (kept observable, so no read is dead code). */
export let answerChars = 0;

async function openRaw(baseUrl, w, dispatcher, iterator = false) {
  const { rawClient, rpcUrlOf } = await import('./raw.mjs');
  const c = rawClient(await rpcUrlOf(baseUrl, w.legacy ? '0.3' : '1.0'), { legacy: Boolean(w.legacy), ...(dispatcher ? { dispatcher } : {}) });
  return { unary: (text) => c.unary(text), stream: (n, text) => (iterator ? c.streamIter(n, text) : c.stream(n, text)), close: c.close };
}

async function openOfficial(baseUrl, w) {
  const { ClientFactory, JsonRpcTransportFactory } = await import('@a2a-js/sdk/client');
  const { connectOfficial, officialParams } = await import('./official.mjs');
  const client = w.legacy
    ? await new ClientFactory({ transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })] })
      .createFromUrl(baseUrl, '/.well-known/agent-card-v03.json')
    : await connectOfficial(baseUrl);
  return {
    async unary(text) {
      const result = await client.sendMessage(officialParams(text));
      if (result?.status?.state !== OFFICIAL_COMPLETED) throw new Error('official client: task not completed');
    },
    async stream(_n, text) {
      let count = 0;
      for await (const item of client.sendMessageStream(officialParams(text))) if (item) count++;
      return count;
    },
    close: async () => {},
  };
}

async function openOurs(baseUrl, w, mode, dispatcher) {
  const { sdk, error } = await loadSdk();
  if (!sdk) throw new Error(`a2a-resilient did not load: ${error}`);
  const client = await sdk.A2AClient.connect(baseUrl, { ...(w.legacy ? { protocol: { version: '0.3' } } : {}), ...(dispatcher ? { dispatcher } : {}) });
  return {
    async unary(text) {
      if (mode === 'invoke') {
        const events = await client.invoke(text);
        const bad = events.find((ev) => sdk.isTerminalError(ev));
        if (bad) throw new Error(`invoke error event: ${bad.error?.message}`);
      } else if (!(await client.sendMessage(textParams(text)))) {
        throw new Error('sendMessage resolved nothing');
      }
    },
    async stream(n, text) {
      // stream() is the default call: the final event carries the whole answer when it is at most
      // 1 MiB of text (the default `accumulate`), else none (`answerOmitted`); streamLean says
      // `accumulate: false`. The default's answer is checked, so the kept text is real.
      let chars = 0;
      let omitted = false;
      const lean = mode === 'streamLean';
      const count = await countOurStream(sdk, client, mode === 'stream' || lean, text, lean ? { accumulate: false } : {}, (c, o) => {
        chars = c;
        omitted = o;
      });
      const answer = n * (w.text ?? 1);
      if (mode === 'stream' && (omitted ? answer <= DEFAULT_ANSWER_CHARS : chars < answer)) {
        throw new Error(`stream(): final answer of ${chars} chars (omitted: ${omitted}) for ${n} chunks of ${w.text} B`);
      }
      answerChars += chars;
      return count;
    },
    close: async () => {
      await client.close();
    },
  };
}

/**
 * Opens contender `key` for workload `w` at `baseUrl` (with BENCH_TRANSPORT=replay: no server, every
 * request answered in-process by `replay-dispatcher.mjs`). Resolves `{ run(units, gapUs?, perStream?, { unpaced? }), close() }`;
 * `gapUs` paces per-frame writes (instruction mode), `unpaced` writes a paced row's frames one per write
 * without pauses (its warm-up); `run` throws when fewer items than events arrive.
 */
export async function openWorkloadClient(key, baseUrl, w) {
  const readPath = async (u, x, d) => (await import('./read-paths.mjs')).openReadPath(key, u, x, d);
  const open = { rawDispatch: readPath, rawStream: readPath, rawFetch: readPath, rawCoalesce: readPath, raw: openRaw, rawIter: (u, x, d) => openRaw(u, x, d, true), official: openOfficial, ssm: (u, x, d) => openOurs(u, x, 'ssm', d), stream: (u, x, d) => openOurs(u, x, 'stream', d), streamLean: (u, x, d) => openOurs(u, x, 'streamLean', d), sendMessage: (u, x, d) => openOurs(u, x, 'sendMessage', d), invoke: (u, x, d) => openOurs(u, x, 'invoke', d) }[key];
  if (!open) throw new Error(`unknown contender "${key}"`);
  let dispatcher;
  if (process.env.BENCH_TRANSPORT === 'replay') {
    // No server: every client gets the in-process replay (the official one through global fetch).
    const [{ ReplayDispatcher }, { setGlobalDispatcher }] = await Promise.all([import('./replay-dispatcher.mjs'), import('undici')]);
    dispatcher = new ReplayDispatcher();
    setGlobalDispatcher(dispatcher);
    baseUrl = REPLAY_BASE_URL;
  }
  const s = await open(baseUrl, w, dispatcher);
  if (w.kind === 'unary') {
    const text = encodeRequest(w);
    return { ...s, run: async (units) => { await runConcurrent(units, w.concurrency ?? 1, () => s.unary(text)); return units; } };
  }
  const streams = w.concurrency ?? 1;
  return {
    ...s,
    async run(units, gapUs = 0, perStream = undefined, { unpaced = false } = {}) {
      const per = perStream ?? (streams > 1 ? w.perUnit : units);
      const total = perStream ? streams : Math.max(1, Math.round(units / per));
      // Unpaced: the same streams with one write per frame, as fast as they go (warming up a paced row).
      const text = encodeRequest(unpaced ? { ...w, write: 'frame', gapUs: 0 } : w, per, gapUs);
      for (let started = 0; started < total; started += streams) {
        const n = Math.min(streams, total - started);
        const counts = await Promise.all(Array.from({ length: n }, () => s.stream(per, text)));
        const items = counts.reduce((a, b) => a + b, 0);
        if (items < n * per) throw new Error(`${key}: ${items} items for ${n * per} events`);
      }
      return total * per;
    },
  };
}
