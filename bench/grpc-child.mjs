/**
 * The measured CLIENT process of the gRPC workloads (spawned pinned to the client core by
 * `grpc.mjs`, or under valgrind for instruction counts). argv: <contender> <workload> <cardUrl>
 * <mode> [units] [reps]; prints ONE line of JSON, as `workload-child.mjs` does:
 *   `measure`: warm-up, then `reps` runs of `units` → `{ rates, cpuUsPerUnit, peakRssMB }`
 *   `slices`:  warm-up, then one run per turn its parent gives over IPC (`slices.mjs`) → `{ peakRssMB }`
 *   `once`:    BENCH_WARM_UNITS first, then one run of `units` (with --expose-gc: a full GC before
 *              and after) → `{ units, ms }`
 * Contenders: `official` (`@a2a-js/sdk` ClientFactory with its GrpcTransportFactory), `sendMessage`,
 * `ssm` (ours `sendStreamingMessage`), `stream` (ours `stream()`), each connected from the card, and
 * `grpcjs` (grpc-js alone with our codecs: the floor the guarantees are added to).
 */
import { runConcurrent } from './load.mjs';
import { grpcRequestText, grpcWorkload } from './grpc-defs.mjs';
import { countOurStream, loadSdk, textParams } from './sdk.mjs';
import { serveSlices } from './slices.mjs';

const [key, workloadKey, cardUrl, mode = 'measure', unitsArg, repsArg] = process.argv.slice(2);
/** TaskState.TASK_STATE_COMPLETED in the official client's numeric enum. */
const OFFICIAL_COMPLETED = 3;

async function openOfficial() {
  const [{ ClientFactory }, { GrpcTransportFactory }, { randomUUID }] = await Promise.all([import('@a2a-js/sdk/client'), import('@a2a-js/sdk/client/grpc'), import('node:crypto')]);
  // Its gRPC transport encodes with ts-proto, which needs every field of the message present.
  const officialParams = (text) => ({
    tenant: '',
    message: { messageId: randomUUID(), contextId: '', taskId: '', role: 1, parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [], referenceTaskIds: [] },
    configuration: undefined,
    metadata: undefined,
  });
  const client = await new ClientFactory({ transports: [new GrpcTransportFactory()] }).createFromUrl(cardUrl);
  return {
    async unary(text) {
      const result = await client.sendMessage(officialParams(text));
      if (result?.status?.state !== OFFICIAL_COMPLETED) throw new Error('official gRPC client: task not completed');
    },
    async stream(text) {
      let count = 0;
      for await (const item of client.sendMessageStream(officialParams(text))) if (item) count++;
      return count;
    },
    close: async () => {},
  };
}

async function openOurs(kind) {
  const { sdk, error } = await loadSdk();
  if (!sdk) throw new Error(`a2a-resilient did not load: ${error}`);
  const client = await sdk.A2AClient.connect(cardUrl);
  if (client.protocol.binding !== 'GRPC') throw new Error(`negotiated ${client.protocol.binding}, not GRPC`);
  return {
    async unary(text) {
      const r = await client.sendMessage(textParams(text));
      if (r?.kind !== 'task' || r.status.state !== 'completed') throw new Error('ours: task not completed');
    },
    stream: (text) => countOurStream(sdk, client, kind === 'stream', text),
    close: () => client.close(),
  };
}

/**
 * grpc-js alone, the floor of any client built on it: a `Client` on the card's gRPC address, our
 * codecs (request from ProtoJSON, answer to ProtoJSON: a Task's state is read, nothing validated), no
 * deadline, no pipeline — what ours adds its guarantees to. From the bench server's bundle of the codecs.
 */
async function openGrpcJs() {
  const [grpc, { runtime }, { randomUUID }] = await Promise.all([import('@grpc/grpc-js'), import('../node_modules/.cache/a2a-bench/grpc-runtime.mjs'), import('node:crypto')]);
  const card = await (await fetch(new URL('/.well-known/agent-card.json', cardUrl))).json();
  const target = card.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC').url.replace(/^grpc:\/\//, '');
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  const methods = runtime.services['1.0'].methods;
  const toBuffer = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const request = (m, text) => m.encodeRequest({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
  const metadata = () => {
    const md = new grpc.Metadata();
    md.set('a2a-version', '1.0');
    return md;
  };
  return {
    unary(text) {
      const m = methods.get('SendMessage');
      return new Promise((resolve, reject) => {
        client.makeUnaryRequest(m.path, toBuffer, (b) => b, request(m, text), metadata(), {}, (err, bytes) => {
          if (err) reject(err);
          else if (m.decodeResponse(bytes).task?.status?.state !== 'TASK_STATE_COMPLETED') reject(new Error('grpc-js alone: task not completed'));
          else resolve();
        });
      });
    },
    async stream(text) {
      const m = methods.get('SendStreamingMessage');
      let count = 0;
      for await (const bytes of client.makeServerStreamRequest(m.path, toBuffer, (b) => b, request(m, text), metadata(), {})) if (m.decodeResponse(bytes)) count++;
      return count;
    },
    close: async () => client.close(),
  };
}

async function open(w) {
  const s = key === 'official' ? await openOfficial() : key === 'grpcjs' ? await openGrpcJs() : await openOurs(key);
  if (w.kind === 'unary') {
    const text = grpcRequestText(w);
    return { close: s.close, run: async (units) => { await runConcurrent(units, w.concurrency ?? 1, () => s.unary(text)); return units; } };
  }
  return {
    close: s.close,
    async run(units) {
      // Ours stream() yields one AgentEvent per chunk plus the final one; the official client and
      // sendStreamingMessage one item per message (submitted task + chunks + status): at least `units`.
      const items = await s.stream(grpcRequestText(w, units));
      if (items < units) throw new Error(`${key}: ${items} items for ${units} events`);
      return units;
    },
  };
}

async function main() {
  const w = grpcWorkload(workloadKey);
  const units = Number(unitsArg ?? w.units);
  const client = await open(w);
  let out;
  try {
    if (mode === 'slices') {
      // Warm up as `measure` does, then one slice of `units` per turn the parent gives (slices.mjs).
      const warm = Math.max(units, 3_000);
      await client.run(warm);
      await client.run(warm);
      await serveSlices((n) => client.run(n));
      out = {};
    } else if (mode === 'once') {
      const warm = Number(process.env.BENCH_WARM_UNITS ?? 0);
      if (warm > 0) await client.run(warm);
      globalThis.gc?.();
      const t0 = performance.now();
      const done = await client.run(units);
      globalThis.gc?.();
      out = { units: done, ms: performance.now() - t0, readsPerUnit: 0 };
    } else {
      const warm = Math.max(units, 3_000);
      await client.run(warm);
      await client.run(warm);
      const rates = [];
      const cpu = [];
      for (let i = 0; i < Number(repsArg ?? 3); i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const done = await client.run(units);
        const ms = performance.now() - t0;
        const used = process.cpuUsage(c0);
        rates.push((done / ms) * 1000);
        cpu.push((used.user + used.system) / done);
      }
      out = { rates, cpuUsPerUnit: cpu };
    }
  } finally {
    await client.close();
  }
  out.peakRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ ok: true, ...out })}\n`);
}

main().catch((err) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`);
  process.exitCode = 1;
});
