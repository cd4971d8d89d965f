/**
 * How much of a streamed answer the event API keeps for its final event: the call's `accumulate`.
 * An answer longer than the limit is not kept (its chunks carried all of it), so a long answer costs
 * memory for one chunk, not for everything so far.
 */

/** Characters kept when the call does not say (`accumulate` unset): 1 MiB of text. */
export const DEFAULT_ANSWER_CHARS = 1_048_576;

/**
 * The most characters of answer the final event carries: `false` → 0, `true` → no limit, unset →
 * {@link DEFAULT_ANSWER_CHARS}, a number → itself; `undefined` for a number that is not a whole
 * number ≥ 0 (or `Infinity`), which the client refuses.
 */
export function answerLimit(accumulate: boolean | number | undefined): number | undefined {
  if (accumulate === undefined) return DEFAULT_ANSWER_CHARS;
  if (accumulate === true) return Number.POSITIVE_INFINITY;
  if (accumulate === false) return 0;
  if (accumulate === Number.POSITIVE_INFINITY || (Number.isSafeInteger(accumulate) && accumulate >= 0)) return accumulate;
  return undefined;
}
