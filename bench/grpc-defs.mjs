/**
 * The gRPC workloads (issue 24): what the minimal gRPC agent (`grpc-server.mjs`) answers and how much
 * each measured client asks for. Fields as in `workload-defs.mjs`: `kind`, `request` (the message
 * text that tells the server what to send), `concurrency`, `units` (calls or events per measured run),
 * `ic` (small / large units of the instruction mode), `icWarm` (units run first in both).
 */

/** Every gRPC workload, in table order. */
export const GRPC_WORKLOADS = [
  { key: 'grpc-unary', label: 'gRPC unary (small Task)', kind: 'unary', request: 'task small', concurrency: 8, units: 3_000, ic: [1_000, 3_000], icWarm: 3_000 },
  { key: 'grpc-unary-50', label: 'gRPC unary (small Task, 50 in flight)', kind: 'unary', request: 'task small', concurrency: 50, units: 3_000, ic: [1_000, 3_000], icWarm: 3_000 },
  { key: 'grpc-unary-realistic', label: 'gRPC unary (realistic Task, ~21 KB)', kind: 'unary', request: 'task realistic', concurrency: 8, units: 2_000, ic: [1_000, 3_000], icWarm: 3_000 },
  { key: 'grpc-stream', label: 'gRPC stream (1 B chunks)', kind: 'stream', text: 1, units: 20_000, ic: [5_000, 25_000] },
  { key: 'grpc-stream-400', label: 'gRPC stream (400 B chunks)', kind: 'stream', text: 400, units: 20_000, ic: [5_000, 25_000] },
];

/**
 * Contenders: the official `@a2a-js/sdk` gRPC client (the reference), grpc-js alone with our codecs
 * (the floor, not a target), ours (unary: sendMessage; streams: sendStreamingMessage, stream()).
 */
export const GRPC_CONTENDERS = { unary: ['official', 'grpcjs', 'sendMessage'], stream: ['official', 'grpcjs', 'ssm', 'stream'] };

/** Contenders shown for comparison only: no target applies to them. */
export const GRPC_REFERENCES = new Set(['official', 'grpcjs']);

/** Display names. */
export const GRPC_CONTENDER_NAMES = { official: 'official gRPC client', grpcjs: 'grpc-js alone (floor)', sendMessage: 'ours sendMessage', ssm: 'ours sendStreamingMessage', stream: 'ours stream()' };

/** The workload with this key; throws with the known keys otherwise. */
export function grpcWorkload(key) {
  const w = GRPC_WORKLOADS.find((x) => x.key === key);
  if (!w) throw new Error(`unknown gRPC workload "${key}" (known: ${GRPC_WORKLOADS.map((x) => x.key).join(', ')})`);
  return w;
}

/** The request text of one stream of `events` events of workload `w` (`stream <N> text=<bytes>`), or its unary request. */
export function grpcRequestText(w, events = 0) {
  return w.kind === 'unary' ? w.request : `stream ${events} text=${w.text}`;
}
