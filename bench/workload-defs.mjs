/**
 * The realistic workloads of issue 15 ("Streaming at the floor"), one table shared by the wall-clock
 * section (`workloads.mjs`), the instruction-count mode (`instructions.mjs`) and the profile
 * breakdown. A workload says what the server sends (write pattern, text size, wire version) and how
 * much the client asks for; the request text carries the server-side part (see `encodeRequest`).
 *
 * Fields: `key`, `label` (table row), `kind` ('stream' | 'unary'), `legacy` (v0.3 wire),
 * `write` ('32k' = frames packed into ~32 KB socket writes, 'frame' = one write per frame),
 * `text` (bytes of each artifact chunk's text), `longAnswer` (an 8 MB or 20 MB answer: ours `stream()` is the
 * default, accumulating call like on every row, and the wall-clock mode adds the cell `streamLean`,
 * `stream(text, { accumulate: false })`), `concurrency` (streams or calls in flight),
 * `units` (events or calls per measured run), `ic` (small/large units of the instruction mode),
 * `perUnit` (events per stream for concurrent streams), `icGapUs` (instruction mode only: µs between
 * per-frame writes, so the client — ~50x slower under valgrind — still gets one frame per read),
 * `gapUs` / `warmPerUnit` / `reps` (paced rows: µs between one stream's frames, frames per stream of the
 * warm-up, measured runs of a row without `turns`), `wallOnly` (the instruction mode skips the row),
 * `turns` (wall clock: the contenders run side by side, a client process each, and take that many
 * interleaved turns of one run each — `slices.mjs`; medians of the turns, and the targets' ratios
 * turn by turn: a row's cells moved by ±30 % from one process to the next), `icWarm` (instruction mode: units run first in both the small and the large run, unpaced, so the JIT
 * is warm before the measured part: unary code was still being optimised between call 1,000 and 3,000).
 * `icSocket` (small/large units when paced over the socket) and `icGapUs` apply only to `BENCH_IC_TRANSPORT=socket`: by default the instruction mode
 * replays every workload in the client process (`replay-dispatcher.mjs`), with exact read boundaries.
 */

/** Every workload, in table order. */
export const WORKLOADS = [
  { key: 'batched', label: 'batched (~32 KB writes)', kind: 'stream', write: '32k', text: 1, units: 20_000, turns: 21, ic: [5_000, 25_000] },
  { key: 'per-frame', label: 'per-frame (1 write/frame)', kind: 'stream', write: 'frame', text: 1, units: 20_000, turns: 21, ic: [5_000, 25_000], icSocket: [500, 2_500], icGapUs: 5_000, icWarm: 5_000 },
  { key: 'text-20', label: '20 B chunks (batched)', kind: 'stream', write: '32k', text: 20, units: 20_000, ic: [5_000, 25_000] },
  { key: 'text-400', label: '400 B chunks (batched)', kind: 'stream', write: '32k', text: 400, longAnswer: true, units: 20_000, turns: 21, ic: [5_000, 25_000] },
  { key: 'text-4k', label: '4 KB chunks (batched)', kind: 'stream', write: '32k', text: 4096, longAnswer: true, units: 5_000, ic: [2_000, 6_000] },
  { key: 'v03', label: 'v0.3 wire (batched)', kind: 'stream', legacy: true, write: '32k', text: 1, units: 20_000, ic: [5_000, 25_000] },
  { key: 'concurrent', label: '1000 x 100 concurrent', kind: 'stream', write: '32k', text: 1, concurrency: 1000, perUnit: 100, units: 100_000, ic: [200_000, 300_000] },
  // 1,000 streams side by side, each one frame every 20 ms for 20 s (tokens at a model's pace): total
  // client CPU and peak RSS. Warm-up: the same 1,000 streams with 50 frames each. Wall clock only.
  // Ours runs on its own pool (no per-origin connection cap, like raw's and the official client's).
  { key: 'paced', label: 'paced 1000 x 1/20 ms, 20 s', kind: 'stream', write: 'paced', text: 1, concurrency: 1000, perUnit: 1000, units: 1_000_000, gapUs: 20_000, warmPerUnit: 50, reps: 1, wallOnly: true },
  // A few fast token streams side by side: 20 streams, one frame each every 1 ms / 5 ms (~3 s per
  // run — the server's 1 ms timers come late, ~1.5 ms apart —, 3 runs after a ~0.5 s warm-up): nearly
  // every frame its own socket read, so the cost per read shows.
  { key: 'paced-1ms', label: 'paced 20 x 1/1 ms, 3 s', kind: 'stream', write: 'paced', text: 1, concurrency: 20, perUnit: 2000, units: 40_000, gapUs: 1_000, warmPerUnit: 500, turns: 9, wallOnly: true },
  { key: 'paced-5ms', label: 'paced 20 x 1/5 ms, 3 s', kind: 'stream', write: 'paced', text: 1, concurrency: 20, perUnit: 600, units: 12_000, gapUs: 5_000, warmPerUnit: 100, turns: 9, wallOnly: true },
  { key: 'unary', label: 'unary (realistic Task)', kind: 'unary', concurrency: 8, units: 2_000, ic: [1_000, 3_000], icWarm: 3_000 },
];

/** Contenders of the streaming workloads (unary: raw, official, sendMessage, invoke). */
export const STREAM_CONTENDERS = ['raw', 'official', 'ssm', 'stream'];
/** Wall clock, long-answer rows only: ours `stream(text, { accumulate: false })` (keeps the current chunk only). */
export const LEAN_STREAM = 'streamLean';
/**
 * The instruction mode also counts raw read through an async iterator: the floor of any iterator API
 * (not a column of the wall-clock tables).
 */
export const ITERATOR_FLOOR = 'rawIter';
/** The other ways to read a body (`read-paths.mjs`): measured with `node bench/workloads.mjs per-frame raw,rawDispatch,…`. */
export const READ_PATHS = ['rawDispatch', 'rawStream', 'rawFetch', 'rawCoalesce'];
export const UNARY_CONTENDERS = ['raw', 'official', 'sendMessage', 'invoke'];

/** Display names of contender keys. */
export const CONTENDER_NAMES = {
  raw: 'raw',
  rawIter: 'raw as an async iterator',
  official: 'official',
  ssm: 'ours sendStreamingMessage',
  stream: 'ours stream()',
  streamLean: 'ours stream({ accumulate: false })',
  sendMessage: 'ours sendMessage',
  invoke: 'ours invoke()',
};

/** Aliases accepted on command lines. */
const ALIASES = { sendStreamingMessage: 'ssm', 'stream()': 'stream', 'invoke()': 'invoke', lean: LEAN_STREAM };

/** The workload with this key; throws with the list of known keys otherwise. */
export function workload(key) {
  const w = WORKLOADS.find((x) => x.key === key);
  if (!w) throw new Error(`unknown workload "${key}" (known: ${WORKLOADS.map((x) => x.key).join(', ')})`);
  return w;
}

/**
 * The contender keys that apply to workload `w` (with `iteratorFloor`, streams add {@link ITERATOR_FLOOR};
 * with `lean`, long-answer rows add {@link LEAN_STREAM}).
 */
export function contendersOf(w, { iteratorFloor = false, lean = false } = {}) {
  if (w.kind === 'unary') return UNARY_CONTENDERS;
  return [...STREAM_CONTENDERS, ...(lean && w.longAnswer ? [LEAN_STREAM] : []), ...(iteratorFloor ? [ITERATOR_FLOOR] : [])];
}

/** Normalises a contender name from a command line (e.g. `sendStreamingMessage` → `ssm`). */
export function contenderKey(name) {
  return ALIASES[name] ?? name;
}

/**
 * Splits command-line words into workload keys and contender keys (commas allowed, e.g.
 * `per-frame ssm,raw`). Empty lists mean "all". Throws on a word that is neither.
 */
export function parseSelection(words) {
  const workloads = [];
  const contenders = [];
  const known = new Set([...STREAM_CONTENDERS, LEAN_STREAM, ITERATOR_FLOOR, ...READ_PATHS, ...UNARY_CONTENDERS]);
  for (const word of words.flatMap((w) => w.split(',')).map((w) => w.trim()).filter(Boolean)) {
    if (WORKLOADS.some((w) => w.key === word)) workloads.push(word);
    else if (known.has(contenderKey(word))) contenders.push(contenderKey(word));
    else throw new Error(`"${word}" is neither a workload (${WORKLOADS.map((w) => w.key).join(', ')}) nor a contender (${[...known].join(', ')})`);
  }
  return { workloads, contenders };
}

/**
 * The request text that tells the bench server what to send: `stream <N> write=<32k|frame>
 * text=<bytes> [gap=<µs>]` for streams, `task realistic` for the unary workload. `gapUs` paces
 * per-frame writes (instruction mode: the client under valgrind must keep up, or frames coalesce).
 */
export function encodeRequest(w, events, gapUs = 0) {
  if (w.kind === 'unary') return 'task realistic';
  const paced = gapUs > 0 ? gapUs : (w.gapUs ?? 0);
  const gap = paced > 0 ? ` gap=${paced}` : '';
  return `stream ${events} write=${w.write} text=${w.text}${gap}`;
}

/** Server side of `encodeRequest`: `{ events, write, text, gapUs }` of a stream request text, or null. */
export function decodeRequest(text) {
  const m = /^stream (\d+)((?: \w+=\w+)*)$/.exec(text);
  if (!m) return null;
  const opts = Object.fromEntries(m[2].trim().split(' ').filter(Boolean).map((kv) => kv.split('=')));
  return {
    events: Number(m[1]),
    write: opts.write ?? 'events',
    text: Number(opts.text ?? 1),
    gapUs: Number(opts.gap ?? 0),
  };
}
