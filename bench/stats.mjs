/**
 * Small statistics helpers: summaries over repetitions and ratios computed pair by pair.
 */

/** Median of a non-empty list of numbers (NaN for an empty one). */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The p-th percentile (0..100, nearest rank) of a sorted Float64Array or array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/** `{ median, min, max, samples }` of a list of measurements. */
export function summarize(samples) {
  return {
    median: median(samples),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
    samples,
  };
}

/**
 * Ratio a/b per repetition (both measured in the same repetition), summarised. Repetitions where
 * either side failed are skipped. Returns undefined when no pair is complete.
 */
export function pairedRatio(a, b) {
  const ratios = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (Number.isFinite(a[i]) && Number.isFinite(b[i]) && b[i] > 0) ratios.push(a[i] / b[i]);
  }
  return ratios.length ? summarize(ratios) : undefined;
}

/** Formats a number with a fixed count of significant-looking decimals for the table. */
export function fmt(n, digits = 0) {
  if (n === undefined || !Number.isFinite(n)) return '-';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
