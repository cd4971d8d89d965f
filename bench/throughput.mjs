/**
 * The side-by-side throughput sections (unary calls/s, streaming events/s): every contender runs
 * once per repetition, the order rotating between repetitions, after one warm-up round.
 */
import { rotate, runConcurrent } from './load.mjs';
import { summarize } from './stats.mjs';

/**
 * Opens every contender against `baseUrl`, warms each up, then measures `reps` interleaved rounds.
 * `measure(session)` returns a rate (higher is better). Resolves `{ [key]: { name, rates, summary,
 * error? } }`; a contender that fails to open or to run records the error and NaN for that round.
 */
export async function sideBySide(contenders, baseUrl, reps, measure, log) {
  const results = {};
  const sessions = [];
  for (const c of contenders) {
    results[c.key] = { name: c.name, rates: [] };
    try {
      sessions.push({ c, s: await c.open(baseUrl) });
    } catch (err) {
      results[c.key].error = `open failed: ${describe(err)}`;
    }
  }
  for (const { c, s } of sessions) {
    try {
      await measure(s, true);
    } catch (err) {
      results[c.key].error = `warm-up failed: ${describe(err)}`;
    }
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const { c, s } of rotate(sessions, rep)) {
      if (results[c.key].error?.startsWith('warm-up')) {
        results[c.key].rates.push(Number.NaN);
        continue;
      }
      try {
        results[c.key].rates.push(await measure(s, false));
      } catch (err) {
        results[c.key].rates.push(Number.NaN);
        results[c.key].error = describe(err);
      }
    }
    log?.(`  rep ${rep + 1}/${reps}: ${Object.values(results).map((r) => `${r.name}=${Math.round(r.rates.at(-1) ?? NaN)}`).join(', ')}`);
  }
  for (const { s } of sessions) await s.close().catch(() => undefined);
  for (const r of Object.values(results)) r.summary = summarize(r.rates.filter(Number.isFinite));
  return results;
}

/** Unary: calls/s for `calls` calls at `concurrency` (warm-up: the same count, at least 5,000, so the JIT settles). */
export function unaryMeasure(calls, concurrency) {
  return async (session, warm) => {
    const n = warm ? Math.max(5_000, calls) : calls;
    const ms = await runConcurrent(n, concurrency, session.unary);
    return (n / ms) * 1000;
  };
}

/** Streaming: events/s for one stream of `events` updates (warm-up: 5 streams of at least 10,000, so the JIT settles). */
export function streamMeasure(events) {
  return async (session, warm) => {
    const n = warm ? Math.max(10_000, events) : events;
    if (warm) for (let i = 0; i < 4; i++) await session.stream(n);
    const t0 = performance.now();
    const got = await session.stream(n);
    const ms = performance.now() - t0;
    if (got < n) throw new Error(`stream yielded ${got} items for ${n} updates`);
    return (n / ms) * 1000;
  };
}

/** A short message for an error of any type (keeps `kind` / `code` when present). */
export function describe(err) {
  if (err instanceof Error) {
    const kind = 'kind' in err ? ` [${err.kind}]` : '';
    return `${err.name}${kind}: ${err.message}`.slice(0, 300);
  }
  return String(err).slice(0, 300);
}
