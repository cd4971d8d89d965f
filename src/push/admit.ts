/**
 * Checks of a delivery at the boundary, before anything recursive touches it: its content type, and
 * how deep its JSON nests (counted on the bytes, so nothing deeper than the cap is ever parsed,
 * decoded or reconciled — a payload nested 100,000 deep would otherwise exhaust the stack there).
 */

import { mediaTypeOf } from '../util/media-type.js';

/** The media types a delivery may carry (parameters such as `charset` allowed). */
const JSON_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/a2a+json']);

/**
 * Whether `contentType` is JSON as A2A posts it: `application/json` or `application/a2a+json`, any
 * case, with parameters. Anything else (none, `text/plain`, a form, multipart — what a browser may
 * send without a preflight) is not.
 */
export function isJsonContentType(contentType: string | null): boolean {
  return JSON_TYPES.has(mediaTypeOf(contentType));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Whether the JSON text in `bytes` nests objects and arrays more than `max` deep (brackets inside
 * strings do not count). One pass, no recursion; text that is not JSON is left to the parser.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
  }
  return false;
}
