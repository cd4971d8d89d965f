import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardPayloads, withoutEmpty } from '../../src/protocol/card-canonical.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The same JSON with every object's members in reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)]));
  return value;
}

describe('card payloads', () => {
  it('drop signatures; the second form drops empty values at every depth', async () => {
    const payloads = await cardPayloads({ name: 'a', description: '', skills: [], capabilities: { streaming: false, extensions: [] }, signatures: [{ protected: 'x', signature: 'y' }] });
    expect(payloads.map(text)).toEqual(['{"capabilities":{"extensions":[],"streaming":false},"description":"","name":"a","skills":[]}', '{"capabilities":{"streaming":false},"name":"a"}']);
    expect((await cardPayloads({ b: 1, a: 2 })).map(text)).toEqual(['{"a":2,"b":1}']);
  });

  it('property: member order never changes a payload', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (card) => {
        const a = (await cardPayloads(card)).map(text);
        const b = (await cardPayloads(reordered(card) as Record<string, unknown>)).map(text);
        expect(b).toEqual(a);
      }),
      { numRuns: 200 },
    );
  });

  it('property: withoutEmpty leaves no empty string, null, [] or {} anywhere', () => {
    const empty = (v: unknown): boolean =>
      v === '' || v === null || (Array.isArray(v) && (v.length === 0 || v.some(empty))) || (typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.keys(v).length === 0 || Object.values(v).some(empty)));
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const cleaned = withoutEmpty(value);
        if (cleaned !== undefined) expect(empty(cleaned)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
