/**
 * The handler for an outcome nobody waits for any more (an attempt or a read that settles after its
 * call was cut, a close whose failure has no one to report to): dropped on purpose, so a late
 * rejection is observed and never unhandled.
 */
export function ignoreLate(): void {
  return undefined;
}
