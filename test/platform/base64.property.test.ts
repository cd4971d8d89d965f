/**
 * The web build decodes Basic credentials (for redaction) exactly as the Node build does: the same
 * text for every string shaped like base64 (any length, padded or not), and it never throws — a
 * malformed `Authorization` header must not break the error that reports a failure.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { platform as node } from '../../src/platform/node.js';
import { platform as web } from '../../src/platform/web.js';

describe('base64ToUtf8 (web build) against the Node build', () => {
  it('decodes any base64-shaped text the same', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/]+=*$/), (text) => {
        expect(web.base64ToUtf8(text)).toBe(node.base64ToUtf8(text));
      }),
      { numRuns: 500 },
    );
  });

  it('decodes real credentials, and a dangling character or missing padding without throwing', () => {
    const credentials = btoa('agent:s3cr3t-pässword'.normalize());
    expect(web.base64ToUtf8(btoa('agent:s3cr3t'))).toBe('agent:s3cr3t');
    for (const text of [credentials, 'a', 'abcde', 'YWdlbnQ', 'YWdlbnQ===', '////']) expect(web.base64ToUtf8(text)).toBe(node.base64ToUtf8(text));
  });
});
