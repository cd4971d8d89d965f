/**
 * Benchmark sizes, read from the environment so a quick smoke run and a full run share one code path.
 * BENCH_QUICK=1 shrinks every count for a ~30 s run; each count can also be set on its own.
 */

const quick = process.env.BENCH_QUICK === '1';

/** Reads a positive integer from the environment, or returns the fallback. Throws on a bad value. */
function envInt(name, full, small) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return quick ? small : full;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** The counts used by every benchmark section. */
export const config = Object.freeze({
  quick,
  /** Repetitions measured per section (after one warm-up). */
  reps: envInt('BENCH_REPS', 5, 3),
  /** Repetitions of the streaming section: one 20k-event stream lasts ~30 ms, so more of them steady the median. */
  streamReps: envInt('BENCH_STREAM_REPS', 15, 5),
  /** Unary calls per contender per repetition. */
  unaryCalls: envInt('BENCH_UNARY_CALLS', 20_000, 4_000),
  /** Calls in flight at once for the unary section. */
  concurrency: envInt('BENCH_CONCURRENCY', 64, 64),
  /** Events in the one stream of the streaming section. */
  streamEvents: envInt('BENCH_STREAM_EVENTS', 20_000, 5_000),
  /** Calls timed one by one with the breaker open. */
  breakerCalls: envInt('BENCH_BREAKER_CALLS', 10_000, 2_000),
  /** Deadline of the fan-out section, in ms. */
  fanOutTotalMs: envInt('BENCH_FANOUT_MS', 500, 500),
  /** Events in the memory section's stream. */
  memoryEvents: envInt('BENCH_MEMORY_EVENTS', 100_000, 20_000),
  /** Chunks of 4 KB in the long-answer memory probe (stream() with and without accumulate: false). */
  memoryLongEvents: envInt('BENCH_MEMORY_LONG_EVENTS', 20_000, 5_000),
  /** SSE events the server packs into one socket write (1 = one write per event). */
  sseBatch: envInt('BENCH_SSE_BATCH', 16, 16),
  /** Only run these sections (comma list of coldstart,bundle,unary,stream,shared,breaker,fanout,memory,a2ajs,workloads,grpc); all when unset. */
  only: (process.env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean),
});

/** True when the section should run under BENCH_ONLY. */
export function wanted(section) {
  return config.only.length === 0 || config.only.includes(section);
}
