import type { EngineResponse } from './engine.js';
import { StreamedResponse } from './streamed-response.js';
import { cleanUpAfter } from '../util/clean-up-after.js';
import { platform } from '../platform/current.js';

/** How much of an error body {@link readErrorBody} keeps. */
export const ERROR_BODY_BYTES = 8 * 1024;

/**
 * Reads at most ~8 KiB of a (usually non-2xx) response as text for error reports, then releases the
 * response. Never throws: a body that fails mid-way yields what was read before (or `''`).
 */
export async function readErrorBody(response: EngineResponse, maxBytes: number = ERROR_BODY_BYTES): Promise<string> {
  try {
    if (response instanceof StreamedResponse) {
      return platform.utf8(await response.readPrefix(maxBytes));
    }
    const text = await response.text();
    return text.length > maxBytes ? text.slice(0, maxBytes) : text;
  } catch (error) {
    // The report is best effort: the HTTP status is the real error; keep the reading failure out of it.
    await cleanUpAfter(error, () => response.close());
    return '';
  }
}
