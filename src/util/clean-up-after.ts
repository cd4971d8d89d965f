import { platform } from '../platform/current.js';

/**
 * Cleanup that runs while a failure is on its way to the caller (closing an engine after a failed
 * `connect`, releasing a response whose body could not be read, …). Whatever the cleanup does —
 * throw, reject, or not exist on this runtime (Bun substitutes its own `undici` whose `Agent` has no
 * `close`) — the caller gets the failure being reported, never the cleanup's. The cleanup's own
 * failure is not dropped: it is reported as a process warning (the console in the web build) (code `A2A_RESILIENT_CLEANUP`).
 */
export async function cleanUpAfter(primary: unknown, cleanup: () => unknown): Promise<void> {
  try {
    await cleanup();
  } catch (failure) {
    reportCleanupFailure(primary, failure);
  }
}

/** {@link cleanUpAfter} for a cleanup that is synchronous (destroying a socket, a body source). */
export function cleanUpAfterSync(primary: unknown, cleanup: () => void): void {
  try {
    cleanup();
  } catch (failure) {
    reportCleanupFailure(primary, failure);
  }
}

/** Where a cleanup failure goes: a warning naming both, so neither is lost and neither replaces the other. */
export function reportCleanupFailure(primary: unknown, failure: unknown): void {
  const text = `a2a-resilient: cleaning up after a failure failed too (${describe(failure)}); the failure reported is the first one (${nameOf(primary)})`;
  // The web build (browsers, workers) gets the same text on the console.
  platform.warn(text, 'A2A_RESILIENT_CLEANUP');
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The reported failure by name and kind only: its message is already on its way to the caller. */
function nameOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  return 'kind' in error && typeof error.kind === 'string' ? `${error.name} ${error.kind}` : error.name;
}

/**
 * Runs `run`, then `close` — after a failure too, without letting a failing close replace that
 * failure (a close that fails after a success is the call's failure).
 */
export async function runThenClose<T>(run: () => Promise<T>, close: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await cleanUpAfter(error, close);
    throw error;
  }
  await close();
  return result;
}
