/**
 * Load drivers shared by the sections.
 */

/**
 * Runs `once()` `total` times with `concurrency` calls in flight; resolves the elapsed milliseconds.
 * Rejects with the first error a call throws (the remaining workers stop picking up work).
 */
export async function runConcurrent(total, concurrency, once) {
  let started = 0;
  let failure;
  const worker = async () => {
    while (started < total && failure === undefined) {
      started++;
      try {
        await once();
      } catch (err) {
        failure ??= err;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const elapsed = performance.now() - t0;
  if (failure !== undefined) throw failure;
  return elapsed;
}

/** Rotates a list by `by` places, so contenders take turns going first across repetitions. */
export function rotate(list, by) {
  const k = ((by % list.length) + list.length) % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}
