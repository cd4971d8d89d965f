/**
 * The shared-state section: the same unary `sendMessage` load with the agent's breaker and budget in
 * the process (`off`) and in a Redis store (`on`, `sharedState: redisStateStore(...)`), interleaved
 * (the order alternates each repetition) after a warm-up. The claim: the hot path never waits for
 * Redis, so `on` keeps at least 0.95× the calls/s of `off` (paired ratio per repetition). The client's
 * CPU time per call is recorded too: on a shared machine it moves less than wall-clock throughput.
 * Skipped, with the reason, without a redis-server binary or the `redis` package.
 */
import { resilientContender } from './contenders.mjs';
import { rotate, runConcurrent } from './load.mjs';
import { startRedis } from './redis-server.mjs';
import { pairedRatio, summarize } from './stats.mjs';

/** Resolves `{ off, on, ratio, cpuRatio }` (each side `{ name, rates, cpuUsPerCall }`), or `{ skipped }`. */
export async function sharedStateSection(sdk, baseUrl, { reps, calls, concurrency }, log) {
  let redisEntry;
  try {
    redisEntry = await import('a2a-resilient/redis');
  } catch (err) {
    return { skipped: `a2a-resilient/redis did not load: ${err instanceof Error ? err.message : String(err)}` };
  }
  const redis = await startRedis();
  if (redis.skipped) return { skipped: redis.skipped };
  const store = redisEntry.redisStateStore({ url: redis.url, prefix: `bench${process.pid}:` });
  const sessions = [];
  try {
    const t0 = performance.now();
    while (store.status !== 'synced') {
      if (performance.now() - t0 > 10_000) throw new Error(`the store did not sync (${store.status})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const contenders = [
      resilientContender(sdk, 'off', 'sendMessage, per-agent state in the process', 'sendMessage'),
      resilientContender(sdk, 'on', 'sendMessage, sharedState on Redis', 'sendMessage', { sharedState: store }),
    ];
    const results = {};
    for (const c of contenders) {
      sessions.push({ c, s: await c.open(baseUrl) });
      results[c.key] = { name: c.name, rates: [], cpuUsPerCall: [] };
    }
    const measure = async (session, n) => {
      const cpu0 = process.cpuUsage();
      const ms = await runConcurrent(n, concurrency, session.unary);
      const cpu = process.cpuUsage(cpu0);
      return { rate: (n / ms) * 1000, cpuUs: (cpu.user + cpu.system) / n };
    };
    for (const { s } of sessions) await measure(s, Math.max(5_000, calls));
    for (let rep = 0; rep < reps; rep++) {
      for (const { c, s } of rotate(sessions, rep)) {
        const { rate, cpuUs } = await measure(s, calls);
        results[c.key].rates.push(rate);
        results[c.key].cpuUsPerCall.push(cpuUs);
      }
      log?.(`  rep ${rep + 1}/${reps}: off=${Math.round(results.off.rates.at(-1))}/s, on=${Math.round(results.on.rates.at(-1))}/s`);
    }
    for (const r of Object.values(results)) {
      r.summary = summarize(r.rates);
      r.cpu = summarize(r.cpuUsPerCall);
    }
    return {
      ...results,
      ratio: pairedRatio(results.on.rates, results.off.rates),
      // Inverse: off's CPU per call over on's, so that higher is better as for the rate.
      cpuRatio: pairedRatio(results.off.cpuUsPerCall, results.on.cpuUsPerCall),
      storeStatus: store.status,
    };
  } finally {
    for (const { s } of sessions) await s.close().catch(() => undefined);
    await store.close();
    await redis.stop();
  }
}
