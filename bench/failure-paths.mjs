/**
 * Failure-path timings: fail-fast latency with the circuit breaker open, and a fan-out to 10 agents
 * of which 3 hang.
 */
import { percentile, summarize } from './stats.mjs';
import { describe } from './throughput.mjs';
import { textParams } from './sdk.mjs';

/**
 * Opens the breaker of an agent that answers 503 (retries off, 5 consecutive failures), then times
 * `calls` calls one by one with `process.hrtime.bigint()`. Resolves p50/p99/max in ms for
 * `sendMessage` (rejects with kind circuit-open) and `invoke` (resolves an error event).
 * @throws Error when the breaker never opens, or a call fails with another kind.
 */
export async function breakerOpen(sdk, url503, calls) {
  const client = await sdk.A2AClient.connect(url503, {
    retry: false,
    circuitBreaker: { consecutiveFailures: 5, halfOpenAfterMs: 600_000 },
  });
  try {
    const params = textParams('hi');
    let opened = false;
    let lastKind;
    for (let i = 0; i < 50 && !opened; i++) {
      try {
        await client.sendMessage(params);
      } catch (err) {
        lastKind = err?.kind;
        opened = lastKind === 'circuit-open';
      }
    }
    if (!opened) throw new Error(`breaker did not open after 50 calls on a 503 agent (last kind: ${lastKind})`);
    const time = async (once) => {
      for (let i = 0; i < 200; i++) await once(); // warm-up
      const lat = new Float64Array(calls);
      for (let i = 0; i < calls; i++) {
        const t0 = process.hrtime.bigint();
        await once();
        lat[i] = Number(process.hrtime.bigint() - t0) / 1e6;
      }
      lat.sort();
      return { calls, p50Ms: percentile(lat, 50), p99Ms: percentile(lat, 99), maxMs: lat[lat.length - 1] };
    };
    const sendMessage = await time(async () => {
      try {
        await client.sendMessage(params);
      } catch (err) {
        if (err?.kind !== 'circuit-open') throw new Error(`expected circuit-open, got ${describe(err)}`);
        return;
      }
      throw new Error('sendMessage succeeded with the breaker open');
    });
    const invoke = await time(async () => {
      const events = await client.invoke('hi');
      if (!events.some((ev) => sdk.isTerminalError(ev))) throw new Error('invoke returned no error event with the breaker open');
    });
    return { sendMessage, invoke };
  } finally {
    await client.close();
  }
}

/**
 * fanOut to 7 answering + 3 hanging agents with `totalMs`, `reps` times after one warm-up. Breakers
 * are off so every round exercises the deadline path (with them on, the hung agents would soon be
 * skipped instantly). Resolves wall times and how far past the deadline the slowest round ended.
 */
export async function fanOutHang(sdk, okUrls, hangUrls, totalMs, reps) {
  const options = { circuitBreaker: false };
  const clients = await Promise.all([...okUrls, ...hangUrls].map((u) => sdk.A2AClient.connect(u, options)));
  try {
    const targets = clients.map((client) => ({ client, input: 'hi' }));
    const round = async () => {
      const t0 = performance.now();
      const result = await sdk.fanOut(targets, { minResults: okUrls.length, totalMs });
      const wallMs = performance.now() - t0;
      const failedTypes = [...new Set(result.failed.map((f) => `${f.error.type}${f.error.code ? `:${f.error.code}` : ''}`))];
      return { wallMs, ok: result.ok.length, failed: result.failed.length, skipped: result.skipped.length, failedTypes };
    };
    await round();
    const rounds = [];
    for (let i = 0; i < reps; i++) rounds.push(await round());
    const walls = rounds.map((r) => r.wallMs);
    const summary = summarize(walls);
    return {
      agents: clients.length,
      hanging: hangUrls.length,
      totalMs,
      wallMs: summary,
      overshootMs: summary.max - totalMs,
      rounds,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
